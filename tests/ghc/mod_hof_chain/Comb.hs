-- Twin of tests/ghc/mod_hof_chain/Comb.stg (see tests/ghc/README.md).
module Comb (upto, mapL, filterL, foldL, compose, applyN) where

import Prim

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b = if a > b then [] else let a1 = inc a; rest = upto a1 b in a : rest

{-# NOINLINE mapL #-}
mapL :: (Int -> Int) -> [Int] -> [Int]
mapL f xs = case xs of
  [] -> []
  (y : ys) -> let fy = f y; r = mapL f ys in fy : r

{-# NOINLINE filterL #-}
filterL :: (Int -> Bool) -> [Int] -> [Int]
filterL p xs = case xs of
  [] -> []
  (y : ys) -> let r = filterL p ys in if p y then y : r else r

{-# NOINLINE foldL #-}
foldL :: (Int -> Int -> Int) -> Int -> [Int] -> Int
foldL f z xs = case xs of
  [] -> z
  (y : ys) -> let z1 = f z y in foldL f z1 ys

{-# NOINLINE compose #-}
compose :: (Int -> Int) -> (Int -> Int) -> Int -> Int
compose f g x = let gx = g x in f gx

{-# NOINLINE applyN #-}
applyN :: Int -> (Int -> Int) -> Int -> Int
applyN n f x = if n == 0 then x else let fx = f x; n1 = n - 1 in applyN n1 f fx
