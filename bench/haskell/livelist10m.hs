-- Twin of bench/programs/livelist10m.stg: the whole list live until length
-- has walked it.
import Data.List (foldl')

main :: IO ()
main =
  let xs = [1 .. 10000000] :: [Int]
   in let s = foldl' (+) 0 xs
          n = length xs
       in print (s `div` n)
