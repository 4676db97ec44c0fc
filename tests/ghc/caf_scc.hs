-- Twin of tests/ghc/caf_scc.stg (see README.md).
import Data.List (foldl')

sq :: Int -> Int
sq x = x * x

table :: [Int]
table = {-# SCC "build" #-} map sq [1, 2, 3]

total :: Int -> Int
total k = let step acc x = let xk = x * k in acc + xk in foldl' step 0 table

main :: IO ()
main =
  print
    ( let a = total 1
          b = total 2
          c = seq a b
       in [a, b, c]
    )
