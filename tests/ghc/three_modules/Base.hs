-- Twin of tests/ghc/three_modules/Base.stg (see tests/ghc/README.md).
module Base (sq, upto, mapL, filterL, sumL, squares) where

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b =
  if a > b
    then []
    else
      let a1 = a + 1
       in let rest = upto a1 b in a : rest

{-# NOINLINE mapL #-}
mapL :: (Int -> Int) -> [Int] -> [Int]
mapL f xs = case xs of
  [] -> []
  (y : ys) ->
    let fy = f y
        rest = mapL f ys
     in fy : rest

{-# NOINLINE filterL #-}
filterL :: (Int -> Bool) -> [Int] -> [Int]
filterL p xs = case xs of
  [] -> []
  (y : ys) ->
    let rest = filterL p ys
     in if p y then y : rest else rest

{-# NOINLINE sumL #-}
sumL :: [Int] -> Int
sumL xs =
  let go :: Int -> [Int] -> Int
      go acc ys = case ys of
        [] -> acc
        (z : zs) ->
          let acc1 = acc + z
           in let r = go acc1 zs in seq acc1 r
   in go 0 xs

{-# NOINLINE squares #-}
squares :: [Int]
squares = let r = upto 1 30 in mapL sq r
