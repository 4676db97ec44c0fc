-- Twin of tests/ghc/mod_streams/Stream.stg (see tests/ghc/README.md).
module Stream (iterateS, takeWhileS, takeS, mapS, filterS, zipWithS, scanS, sumS) where

{-# NOINLINE iterateS #-}
iterateS :: (Int -> Int) -> Int -> [Int]
iterateS f x = let fx = f x in let rest = iterateS f fx in x : rest

{-# NOINLINE takeWhileS #-}
takeWhileS :: (Int -> Bool) -> [Int] -> [Int]
takeWhileS p xs = case xs of
  [] -> []
  (y : ys) -> if p y then let r = takeWhileS p ys in y : r else []

{-# NOINLINE takeS #-}
takeS :: Int -> [Int] -> [Int]
takeS n xs =
  if n == 0
    then []
    else case xs of
      [] -> []
      (y : ys) -> let n1 = n - 1 in let r = takeS n1 ys in y : r

{-# NOINLINE mapS #-}
mapS :: (Int -> Int) -> [Int] -> [Int]
mapS f xs = case xs of
  [] -> []
  (y : ys) -> let fy = f y; r = mapS f ys in fy : r

{-# NOINLINE filterS #-}
filterS :: (Int -> Bool) -> [Int] -> [Int]
filterS p xs = case xs of
  [] -> []
  (y : ys) -> let r = filterS p ys in if p y then y : r else r

{-# NOINLINE zipWithS #-}
zipWithS :: (Int -> Int -> Int) -> [Int] -> [Int] -> [Int]
zipWithS f xs ys = case xs of
  [] -> []
  (a : as) -> case ys of
    [] -> []
    (b : bs) -> let c = f a b; r = zipWithS f as bs in c : r

{-# NOINLINE scanS #-}
scanS :: (Int -> Int -> Int) -> Int -> [Int] -> [Int]
scanS f z xs =
  let rest = case xs of
        [] -> []
        (y : ys) -> let z1 = f z y in scanS f z1 ys
   in z : rest

{-# NOINLINE sumS #-}
sumS :: [Int] -> Int
sumS xs =
  let go :: Int -> [Int] -> Int
      go acc ys = case ys of
        [] -> acc
        (y : rest) -> let a = acc + y in a `seq` go a rest
   in go 0 xs
