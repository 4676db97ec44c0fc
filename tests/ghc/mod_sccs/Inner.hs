-- Twin of tests/ghc/mod_sccs/Inner.stg (see tests/ghc/README.md).
module Inner (Tree (..), next, collatz, iter, sumL, maxL, upto, build) where

import Data.List (foldl')

data Tree = Node Int [Tree]

{-# NOINLINE next #-}
next :: Int -> Int
next m = {-# SCC "work" #-} (if m `rem` 2 == 0 then m `quot` 2 else 3 * m + 1)

{-# NOINLINE collatz #-}
collatz :: Int -> Int
collatz n =
  let go :: Int -> Int -> Int
      go k m =
        if m == 1
          then k
          else
            let k1 = k + 1
             in let m1 = next m in go k1 m1
   in go 0 n

{-# NOINLINE iter #-}
iter :: (a -> Int) -> [a] -> [Int]
iter f xs = {-# SCC "map" #-} map f xs

{-# NOINLINE sumL #-}
sumL :: [Int] -> Int
sumL xs = foldl' (+) 0 xs

{-# NOINLINE maxL #-}
maxL :: [Int] -> Int
maxL xs = foldl' max 0 xs

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b =
  if a > b
    then []
    else
      let a1 = a + 1
       in let rest = upto a1 b in a : rest

{-# NOINLINE build #-}
build :: Int -> Int -> Tree
build d n =
  if d == 0
    then Node n []
    else
      let d1 = d - 1
          n2 = n * 2
       in let n3 = n2 + 1
           in let l = build d1 n2
                  r = build d1 n3
               in Node n [l, r]
