-- Twin of bench/programs/pipeline10m.stg.
main :: IO ()
main = print (foldr (+) 0 (map double (filter isEven [1 .. 10000000])))

double :: Int -> Int
double x = x + x

isEven :: Int -> Bool
isEven x = x `rem` 2 == 0
