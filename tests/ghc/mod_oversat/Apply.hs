-- Twin of tests/ghc/mod_oversat/Apply.stg (see tests/ghc/README.md).
module Apply (app2, appAll, flipA, foldApp, partial) where

{-# NOINLINE app2 #-}
app2 :: (Int -> Int -> Int) -> Int -> Int -> Int
app2 f x y = f x y

{-# NOINLINE appAll #-}
appAll :: [Int -> Int -> Int] -> Int -> Int -> [Int]
appAll fs x y = case fs of
  [] -> []
  (f : rest) -> let v = f x y; vs = appAll rest x y in v : vs

{-# NOINLINE flipA #-}
flipA :: (Int -> Int -> Int) -> Int -> Int -> Int
flipA f x y = f y x

{-# NOINLINE foldApp #-}
foldApp :: (Int -> Int -> Int) -> Int -> [Int] -> Int
foldApp f z xs = case xs of
  [] -> z
  (y : ys) -> let z1 = f z y in foldApp f z1 ys

{-# NOINLINE partial #-}
partial :: (Int -> Int -> Int) -> Int -> Int -> Int
partial f x = f x
