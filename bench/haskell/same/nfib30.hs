{-# LANGUAGE MagicHash #-}
-- Twin of bench/programs/nfib30.stg with its Prelude functions from
-- StgPrelude.hs (bytecode under GHCi), not from base.
import GHC.Exts (Int (I#))
import StgPrelude
import Prelude (IO, print)

one, two, thirty :: Int
one = I# 1#
two = I# 2#
thirty = I# 30#

nfib :: Int -> Int
nfib n = case ltInt n two of
  True -> one
  False ->
    let n1 = minusInt n one
        n2 = minusInt n two
     in let r1 = nfib n1
            r2 = nfib n2
         in let s = plusInt r1 r2
             in plusInt s one

main :: IO ()
main = print (nfib thirty)
