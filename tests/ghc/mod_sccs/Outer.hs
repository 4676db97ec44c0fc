-- Twin of tests/ghc/mod_sccs/Outer.stg (see tests/ghc/README.md).
module Outer (longest, sumTree) where

import Inner

{-# NOINLINE longest #-}
longest :: [Int] -> Int
longest ns =
  {-# SCC "work" #-}
  ( let steps :: Int -> Int
        steps n = {-# SCC "collatz" #-} collatz n
     in let ls = iter steps ns in maxL ls
  )

{-# NOINLINE sumTree #-}
sumTree :: Tree -> Int
sumTree t =
  {-# SCC "walk" #-}
  ( case t of
      Node v kids -> let ks = iter sumTree kids in v + sumL ks
  )
