-- Twin of tests/ghc/mod_records/Pipe.stg (see tests/ghc/README.md).
module Pipe (upto, encodeAll, decodeAll, mismatches, roundTrip, chainAll, runCounter, checksum) where

import Codec
import Data.List (foldl')

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b =
  if a > b
    then []
    else
      let a1 = a + 1
       in let rest = upto a1 b in a : rest

{-# NOINLINE encodeAll #-}
encodeAll :: Codec -> [Int] -> [Int]
encodeAll c xs = case c of
  Codec e d -> map e xs

{-# NOINLINE decodeAll #-}
decodeAll :: Codec -> [Int] -> [Int]
decodeAll c xs = case c of
  Codec e d -> map d xs

{-# NOINLINE mismatches #-}
mismatches :: [Int] -> [Int] -> Int
mismatches xs ys = case xs of
  [] -> 0
  (x : xt) -> case ys of
    [] -> 1
    (y : yt) -> let m = mismatches xt yt in if x == y then m else m + 1

{-# NOINLINE roundTrip #-}
roundTrip :: Codec -> [Int] -> Int
roundTrip c xs = let ys = encodeAll c xs in let zs = decodeAll c ys in mismatches xs zs

{-# NOINLINE chainAll #-}
chainAll :: [Codec] -> Codec
chainAll cs = case cs of
  [] -> mkShift 0
  (c : rest) -> case rest of
    [] -> c
    _ -> let r = chainAll rest in chain c r

{-# NOINLINE runCounter #-}
runCounter :: Counter -> [Int] -> Int
runCounter c ks = case c of
  Counter v step -> case ks of
    [] -> v
    (k : rest) -> let c2 = step k in runCounter c2 rest

{-# NOINLINE checksum #-}
checksum :: [Int] -> Int
checksum xs =
  let step :: Int -> Int -> Int
      step acc x = (acc * 31 + x) `rem` 1000003
   in foldl' step 0 xs
