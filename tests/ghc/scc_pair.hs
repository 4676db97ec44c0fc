-- Twin of programs/scc_pair.stg (see README.md).
data Pair a b = Pair a b deriving (Show)

g :: Int -> Int
g n = let l = enumFromTo 1 n in sum l

main :: IO ()
main = print ({-# SCC "foo" #-} (let gx = g 10 in Pair gx (7 :: Int)))
