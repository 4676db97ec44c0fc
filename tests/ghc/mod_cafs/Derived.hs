-- Twin of tests/ghc/mod_cafs/Derived.stg (see tests/ghc/README.md).
module Derived (elemT, twinPrimes, primeSum, sqPrimes) where

import Data.List (foldl')
import Tables

{-# NOINLINE elemT #-}
elemT :: Int -> [Int] -> Bool
elemT x ys = case ys of
  [] -> False
  (y : rest) -> if y == x then True else if y > x then False else elemT x rest

{-# NOINLINE twinPrimes #-}
twinPrimes :: [Int]
twinPrimes =
  let isTwin :: Int -> Bool
      isTwin p = let p2 = p + 2 in elemT p2 primes
   in filter isTwin primes

{-# NOINLINE primeSum #-}
primeSum :: Int
primeSum = foldl' (+) 0 primes

{-# NOINLINE sqPrimes #-}
sqPrimes :: [Int]
sqPrimes =
  let small :: Int -> Bool
      small p = p < 60
      look :: Int -> Int
      look p = lookupT squareTable p
   in let ps = takeW small primes in map look ps
