-- Twin of tests/ghc/mod_lib_sccs/Lib.stg (see tests/ghc/README.md).
module Lib (normSum, smooth, scaler, countDown, classify, applyTagged) where

{-# NOINLINE normSum #-}
normSum :: [Int] -> Int
normSum xs =
  let go :: Int -> [Int] -> Int
      go acc ys = case ys of
        [] -> acc
        (y : rest) -> let a1 = {-# SCC "acc" #-} (acc + y) in go a1 rest
   in {-# SCC "loop" #-} go 0 xs

{-# NOINLINE smooth #-}
smooth :: [Int] -> [Int]
smooth xs =
  {-# SCC "avg" #-}
  ( let avg :: Int -> Int -> Int
        avg a b = (a + b) `quot` 2
        t = drop 1 xs
     in zipWith avg xs t
  )

{-# NOINLINE scaler #-}
scaler :: Int -> Int -> Int
scaler k =
  {-# SCC "mkscale" #-}
  ( let s :: Int -> Int
        s x = x * k
     in s
  )

{-# NOINLINE countDown #-}
countDown :: Int -> [Int]
countDown n =
  let loop :: Int -> [Int]
      loop k =
        if k == 0
          then []
          else let k1 = k - 1 in let r = {-# SCC "rec" #-} loop k1 in k : r
   in loop n

{-# NOINLINE classify #-}
classify :: Int -> Int
classify x = if x `rem` 3 == 0 then {-# SCC "fizz" #-} (x * 10) else x

{-# NOINLINE applyTagged #-}
applyTagged :: (Int -> Int) -> Int -> Int
applyTagged f x = {-# SCC "user" #-} f x
