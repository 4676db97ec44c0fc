-- Twin of tests/ghc/mod_dicts/Inst.stg (see tests/ghc/README.md).
module Inst (minI, mkModD, mkTropD, mkScaledD, mkOrdD) where

import Class

{-# NOINLINE minI #-}
minI :: Int -> Int -> Int
minI x y = if x <= y then x else y

{-# NOINLINE mkModD #-}
mkModD :: Int -> NumD
mkModD m =
  let add :: Int -> Int -> Int
      add x y = (x + y) `rem` m
      mul :: Int -> Int -> Int
      mul x y = (x * y) `rem` m
   in NumD add mul 0 1

{-# NOINLINE mkTropD #-}
mkTropD :: Int -> NumD
mkTropD big =
  let mn :: Int -> Int -> Int
      mn x y = minI x y
      pl :: Int -> Int -> Int
      pl x y = x + y
   in NumD mn pl big 0

{-# NOINLINE mkScaledD #-}
mkScaledD :: NumD -> Int -> NumD
mkScaledD d k =
  let add :: Int -> Int -> Int
      add x y = plusD d x y
      mul :: Int -> Int -> Int
      mul x y = let xy = timesD d x y in timesD d xy k
   in NumD add mul 0 k

{-# NOINLINE mkOrdD #-}
mkOrdD :: NumD -> Int -> OrdD
mkOrdD d m =
  let le :: Int -> Int -> Bool
      le x y = let a = x `rem` m; b = y `rem` m in a <= b
   in OrdD le d
