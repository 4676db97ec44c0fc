-- Twin of tests/ghc/mod_shared_caf/Query.stg (see tests/ghc/README.md).
module Query (takeL, maxL, longestIn, countAbove, nth, topLen) where

import Collatz

{-# NOINLINE takeL #-}
takeL :: Int -> [Int] -> [Int]
takeL k xs =
  if k == 0
    then []
    else case xs of
      [] -> []
      (y : ys) -> let k1 = k - 1 in let r = takeL k1 ys in y : r

{-# NOINLINE maxL #-}
maxL :: [Int] -> Int
maxL xs = case xs of
  [] -> 0
  (y : ys) -> let m = maxL ys in if y > m then y else m

{-# NOINLINE longestIn #-}
longestIn :: Int -> Int
longestIn k = let ys = takeL k lens in maxL ys

{-# NOINLINE countAbove #-}
countAbove :: Int -> Int
countAbove t =
  let big :: Int -> Bool
      big x = x > t
   in let ys = filterL big lens in length ys

{-# NOINLINE nth #-}
nth :: [Int] -> Int -> Int
nth xs i = case xs of
  [] -> 0
  (y : ys) -> if i == 0 then y else let i1 = i - 1 in nth ys i1

{-# NOINLINE topLen #-}
topLen :: Int
topLen = maxL lens
