-- Twin of tests/ghc/mod_paps/Fun.stg (see tests/ghc/README.md).
module Fun (add3, idI, compose, twice, applyAll, iterN) where

{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

{-# NOINLINE idI #-}
idI :: Int -> Int
idI x = x

{-# NOINLINE compose #-}
compose :: (Int -> Int) -> (Int -> Int) -> Int -> Int
compose f g x = let gx = g x in f gx

{-# NOINLINE twice #-}
twice :: (Int -> Int) -> Int -> Int
twice f x = let fx = f x in f fx

{-# NOINLINE applyAll #-}
applyAll :: [Int -> Int] -> Int -> [Int]
applyAll fs x = case fs of
  [] -> []
  (f : rest) ->
    let y = f x
        ys = applyAll rest x
     in y : ys

{-# NOINLINE iterN #-}
iterN :: Int -> (Int -> Int) -> Int -> Int
iterN n f x =
  if n == 0
    then x
    else
      let y = f x
       in let n1 = n - 1
              r = iterN n1 f y
           in seq y r
