-- Twin of tests/ghc/mod_shared_caf/Collatz.stg (see tests/ghc/README.md).
module Collatz (next, clen, build, lens, filterL, isEvenN, evens) where

{-# NOINLINE next #-}
next :: Int -> Int
next n = if n `rem` 2 == 0 then n `quot` 2 else 3 * n + 1

{-# NOINLINE clen #-}
clen :: Int -> Int
clen n = if n == 1 then 0 else let m = next n in let r = clen m in r + 1

{-# NOINLINE build #-}
build :: Int -> Int -> [Int]
build i n =
  if i > n
    then []
    else let v = clen i; i1 = i + 1 in let rest = build i1 n in v : rest

{-# NOINLINE lens #-}
lens :: [Int]
lens = {-# SCC "table" #-} build 1 60

{-# NOINLINE filterL #-}
filterL :: (Int -> Bool) -> [Int] -> [Int]
filterL p xs = case xs of
  [] -> []
  (y : ys) -> let r = filterL p ys in if p y then y : r else r

{-# NOINLINE isEvenN #-}
isEvenN :: Int -> Bool
isEvenN x = x `rem` 2 == 0

{-# NOINLINE evens #-}
evens :: [Int]
evens = filterL isEvenN lens
