{-# LANGUAGE MagicHash #-}
-- Twin of bench/programs/primes2000.stg with its Prelude functions from
-- StgPrelude.hs (bytecode under GHCi), not from base.
import GHC.Exts (Int (I#))
import StgPrelude
import Prelude (IO, print)

zero, two, n1999 :: Int
zero = I# 0#
two = I# 2#
n1999 = I# 1999#

notDivides :: Int -> Int -> Bool
notDivides p x = case remInt x p of
  r -> neInt r zero

sieve :: [Int] -> [Int]
sieve xs = case xs of
  p : ps ->
    let nd x = notDivides p x
     in let rest = filter nd ps
         in let srest = sieve rest
             in p : srest

nats :: [Int]
nats = enumFrom two

primes :: [Int]
primes = sieve nats

main :: IO ()
main = print (index primes n1999)
