-- Twin of programs/nested_scc_partial.stg (see README.md).
l :: [Int]
l = enumFromTo 1 5

f :: Int -> Int -> Int
f m a = m * a

main :: IO ()
main = print ({-# SCC "foo" #-} (let fx = {-# SCC "bar" #-} f 3 in map fx l))
