-- Twin of programs/scc_pair.stg (see README.md).
data Pair a b = Pair a b deriving Show

x :: Int
x = 10

y :: Int
y = 7

g :: Int -> Int
g n = sum [1 .. n]

main :: IO ()
main = print ({-# SCC "foo" #-} Pair (g x) y)
