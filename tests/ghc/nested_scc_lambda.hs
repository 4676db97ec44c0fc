-- Twin of programs/nested_scc_lambda.stg (see README.md).
l :: [Int]
l = enumFromTo 1 5

f :: Int -> Int -> Int
f m a = m * a

main :: IO ()
main = print ({-# SCC "foo" #-} (let h y = {-# SCC "bar" #-} f 3 y in map h l))
