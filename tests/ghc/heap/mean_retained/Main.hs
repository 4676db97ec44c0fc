-- Heap twin of programs/mean_retained.stg, 50,000 elements (see ../../README.md).
import Data.List (foldl')

mean :: [Int] -> Int
mean xs = s `seq` (s `div` n)
  where
    s = foldl' (+) 0 xs
    n = length xs

main :: IO ()
main = print (mean [1 .. 50000])
