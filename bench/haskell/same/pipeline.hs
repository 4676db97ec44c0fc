{-# LANGUAGE MagicHash #-}
-- Twin of bench/programs/pipeline.stg with its Prelude functions from
-- StgPrelude.hs (bytecode under GHCi), not from base.
import GHC.Exts (Int (I#))
import StgPrelude
import Prelude (IO, print)

zero, one, two, million :: Int
zero = I# 0#
one = I# 1#
two = I# 2#
million = I# 1000000#

double :: Int -> Int
double x = plusInt x x

isEven :: Int -> Bool
isEven x = case remInt x two of
  r -> eqInt r zero

main :: IO ()
main =
  let xs = enumFromTo one million
   in let evens = filter isEven xs
       in let doubled = map double evens
           in print (foldr plusInt zero doubled)
