-- Twin of bench/programs/pipeline.stg.
main :: IO ()
main = print (foldr (+) 0 (map double (filter isEven [1 .. 1000000])))

double :: Int -> Int
double x = x + x

isEven :: Int -> Bool
isEven x = x `rem` 2 == 0
