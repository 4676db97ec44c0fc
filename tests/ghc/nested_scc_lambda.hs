-- Twin of programs/nested_scc_lambda.stg (see README.md).
x :: Int
x = 3

l :: [Int]
l = [1 .. 5]

f :: Int -> Int -> Int
f m a = m * a

main :: IO ()
main = print ({-# SCC "foo" #-} map (\y -> {-# SCC "bar" #-} f x y) l)
