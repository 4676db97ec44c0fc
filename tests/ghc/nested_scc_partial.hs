-- Twin of programs/nested_scc_partial.stg (see README.md).
x :: Int
x = 3

l :: [Int]
l = [1 .. 5]

f :: Int -> Int -> Int
f m a = m * a

main :: IO ()
main = print ({-# SCC "foo" #-} map ({-# SCC "bar" #-} f x) l)
