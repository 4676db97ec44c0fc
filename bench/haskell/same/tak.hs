{-# LANGUAGE MagicHash #-}
-- Twin of bench/programs/tak.stg with its Prelude functions from
-- StgPrelude.hs (bytecode under GHCi), not from base.
import GHC.Exts (Int (I#))
import StgPrelude
import Prelude (IO, print)

one, n24, n16, n8 :: Int
one = I# 1#
n24 = I# 24#
n16 = I# 16#
n8 = I# 8#

tak :: Int -> Int -> Int -> Int
tak x y z = case ltInt y x of
  False -> z
  True ->
    let x1 = minusInt x one
        y1 = minusInt y one
        z1 = minusInt z one
     in let a = tak x1 y z
            b = tak y1 z x
            c = tak z1 x y
         in tak a b c

main :: IO ()
main = print (tak n24 n16 n8)
