-- Twin of programs/nested_scc_map.stg (see README.md).
x :: Int
x = 3

y :: Int
y = 10

l :: [Int]
l = [1 .. 5]

f :: Int -> Int -> Int
f m a = m * a

g :: Int -> Int -> Int
g k a = k + a

main :: IO ()
main = print ({-# SCC "foo" #-} map (f x) ({-# SCC "bar" #-} map (g y) l))
