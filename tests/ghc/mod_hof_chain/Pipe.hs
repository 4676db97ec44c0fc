-- Twin of tests/ghc/mod_hof_chain/Pipe.stg (see tests/ghc/README.md).
module Pipe (stage, keepMap, total, iterAll, both, sumBoth) where

import Comb

{-# NOINLINE stage #-}
stage :: (Int -> Int) -> (Int -> Int) -> [Int] -> [Int]
stage f g xs =
  let h :: Int -> Int
      h = compose f g
   in mapL h xs

{-# NOINLINE keepMap #-}
keepMap :: (Int -> Bool) -> (Int -> Int) -> [Int] -> [Int]
keepMap p f xs = let ys = filterL p xs in mapL f ys

{-# NOINLINE total #-}
total :: (Int -> Int) -> [Int] -> Int
total f xs =
  let step :: Int -> Int -> Int
      step acc x = let fx = f x in acc + fx
   in foldL step 0 xs

{-# NOINLINE iterAll #-}
iterAll :: Int -> (Int -> Int) -> [Int] -> [Int]
iterAll n f xs =
  let go :: Int -> Int
      go x = applyN n f x
   in mapL go xs

{-# NOINLINE both #-}
both :: (Int -> Int) -> (Int -> Int) -> Int -> Int
both f g x = let a = f x; b = g x in a + b

{-# NOINLINE sumBoth #-}
sumBoth :: (Int -> Int) -> (Int -> Int) -> [Int] -> Int
sumBoth f g xs =
  let fg :: Int -> Int
      fg = both f g
   in total fg xs
