-- Twin of tests/ghc/mod_paps/Build.stg (see tests/ghc/README.md).
module Build (mkAdder, mkAffine, mkScale, pipeline, mkFns) where

import Fun

{-# NOINLINE mkAdder #-}
mkAdder :: Int -> Int -> Int
mkAdder n =
  let k :: Int -> Int
      k y = (y + n) `rem` 1000
   in k

{-# NOINLINE mkAffine #-}
mkAffine :: Int -> Int -> Int -> Int
mkAffine a b =
  let f :: Int -> Int
      f x = (a * x + b) `rem` 1000
   in f

{-# NOINLINE mkScale #-}
mkScale :: Int -> Int -> Int
mkScale k = add3 k k

{-# NOINLINE pipeline #-}
pipeline :: [Int -> Int] -> Int -> Int
pipeline fs = case fs of
  [] -> idI
  (f : rest) -> let r = pipeline rest in compose r f

{-# NOINLINE mkFns #-}
mkFns :: Int -> [Int -> Int]
mkFns n =
  let m = n + 1
   in let c = add3 n 0
          b = mkAffine n m
          a = mkAdder n
       in [a, b, c]
