-- Twin of tests/ghc/mod_hof_chain/Prim.stg (see tests/ghc/README.md).
module Prim (inc, dbl, sq, isOdd, addI) where

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = x + 1

{-# NOINLINE dbl #-}
dbl :: Int -> Int
dbl x = x + x

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE isOdd #-}
isOdd :: Int -> Bool
isOdd x = x `rem` 2 /= 0

{-# NOINLINE addI #-}
addI :: Int -> Int -> Int
addI x y = x + y
