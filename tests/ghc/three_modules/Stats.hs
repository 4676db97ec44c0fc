-- Twin of tests/ghc/three_modules/Stats.stg (see tests/ghc/README.md).
module Stats (mean, variance, sumSquares, scaleAll, countIn, hist, total, spread) where

import Base

{-# NOINLINE mean #-}
mean :: [Int] -> Int
mean xs = sumL xs `quot` length xs

{-# NOINLINE variance #-}
variance :: [Int] -> Int
variance xs =
  let m = mean xs
   in let dev :: Int -> Int
          dev x = let d = x - m in d * d
       in let ds = mapL dev xs
           in mean ds

{-# NOINLINE sumSquares #-}
sumSquares :: [Int] -> Int
sumSquares xs = let s = mapL sq xs in sumL s

{-# NOINLINE scaleAll #-}
scaleAll :: Int -> [Int] -> [Int]
scaleAll k xs =
  let mul :: Int -> Int
      mul x = x * k
   in mapL mul xs

{-# NOINLINE countIn #-}
countIn :: Int -> Int -> [Int] -> Int
countIn lo hi xs =
  let inR :: Int -> Bool
      inR x = if x >= lo then x < hi else False
   in let fs = filterL inR xs
       in length fs

{-# NOINLINE hist #-}
hist :: Int -> [Int] -> [Int]
hist w xs =
  let cnt :: Int -> Int
      cnt b =
        let lo = b * w
         in let hi = lo + w
             in countIn lo hi xs
      bs = upto 0 3
   in mapL cnt bs

{-# NOINLINE total #-}
total :: Int
total = sumL squares

{-# NOINLINE spread #-}
spread :: Int
spread = variance squares
