-- Twin of tests/ghc/mod_cafs/Main.stg (see tests/ghc/README.md).
import Derived
import Tables

{-# NOINLINE firstTwins #-}
firstTwins :: [Int]
firstTwins = take 5 twinPrimes

main :: IO ()
main =
  print
    ( let t3 = lookupT twinPrimes 3
          a = lookupT sqPrimes 5
          b = length twinPrimes
          d = lookupT primes 20
       in t3 : a : b : primeSum : d : firstTwins
    )
