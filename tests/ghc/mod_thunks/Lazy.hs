-- Twin of tests/ghc/mod_thunks/Lazy.stg (see tests/ghc/README.md).
module Lazy (P (..), upto, sq, sumA, mkStats, squaresTo, memoFib, pick, both, sumLazy) where

import Data.List (foldl')

data P = P Int Int

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b =
  if a > b
    then []
    else
      let a1 = a + 1
       in let rest = upto a1 b in a : rest

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE sumA #-}
sumA :: [Int] -> Int
sumA xs = foldl' (+) 0 xs

{-# NOINLINE mkStats #-}
mkStats :: [Int] -> P
mkStats xs =
  {-# SCC "stats" #-}
  ( let s = sumA xs
        n = length xs
     in P s n
  )

{-# NOINLINE squaresTo #-}
squaresTo :: Int -> [Int]
squaresTo n = {-# SCC "gen" #-} (let u = upto 1 n in map sq u)

{-# NOINLINE memoFib #-}
memoFib :: Int -> [Int]
memoFib n =
  let ns = upto 0 n
   in let table = map fib ns
          fib :: Int -> Int
          fib i =
            if i < 2
              then i
              else
                let i1 = i - 1
                    i2 = i - 2
                 in let a = table !! i1
                        b = table !! i2
                     in a + b
       in table

{-# NOINLINE pick #-}
pick :: Int -> Int -> Int -> Int
pick k a b = if k > 0 then a else b

{-# NOINLINE both #-}
both :: P -> Int
both p = case p of
  P a b -> a + b

{-# NOINLINE sumLazy #-}
sumLazy :: [Int] -> Int
sumLazy xs =
  let go :: Int -> [Int] -> Int
      go acc ys = case ys of
        [] -> acc
        (z : zs) -> let acc1 = acc + z in go acc1 zs
   in go 0 xs
