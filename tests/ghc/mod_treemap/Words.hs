-- Twin of tests/ghc/mod_treemap/Words.stg (see tests/ghc/README.md).
module Words (dropSep, takeWord, dropWord, splitW, hashW) where

{-# NOINLINE dropSep #-}
dropSep :: [Int] -> [Int]
dropSep xs = case xs of
  [] -> []
  (y : ys) -> if y == 0 then dropSep ys else xs

{-# NOINLINE takeWord #-}
takeWord :: [Int] -> [Int]
takeWord xs = case xs of
  [] -> []
  (y : ys) -> if y == 0 then [] else let r = takeWord ys in y : r

{-# NOINLINE dropWord #-}
dropWord :: [Int] -> [Int]
dropWord xs = case xs of
  [] -> []
  (y : ys) -> if y == 0 then xs else dropWord ys

{-# NOINLINE splitW #-}
splitW :: [Int] -> [[Int]]
splitW xs =
  let ys = dropSep xs
   in case ys of
        [] -> []
        (z : zs) -> let w = takeWord ys; rest = dropWord ys in let ws = splitW rest in w : ws

{-# NOINLINE hashW #-}
hashW :: [Int] -> Int
hashW w =
  let step :: Int -> Int -> Int
      step h c = (h * 31 + c) `rem` 1009
   in foldl step 7 w
