-- Twin of tests/ghc/mod_caf_web/Base.stg (see tests/ghc/README.md).
module Base (upto, sq, sumL, lengthL, mapL, filterL, zipWithL, squares, limit) where

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b = if a > b then [] else let a1 = a + 1; rest = upto a1 b in a : rest

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE sumL #-}
sumL :: [Int] -> Int
sumL xs = case xs of
  [] -> 0
  (y : ys) -> let s = sumL ys in y + s

{-# NOINLINE lengthL #-}
lengthL :: [Int] -> Int
lengthL xs = case xs of
  [] -> 0
  (y : ys) -> let n = lengthL ys in n + 1

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

{-# NOINLINE zipWithL #-}
zipWithL :: (Int -> Int -> Int) -> [Int] -> [Int] -> [Int]
zipWithL f xs ys = case xs of
  [] -> []
  (a : as) -> case ys of
    [] -> []
    (b : bs) -> let c = f a b; r = zipWithL f as bs in c : r

{-# NOINLINE squares #-}
squares :: [Int]
squares = let ns = upto 1 20 in mapL sq ns

{-# NOINLINE limit #-}
limit :: Int
limit = {-# SCC "lim" #-} (let ns = upto 1 10 in sumL ns)
