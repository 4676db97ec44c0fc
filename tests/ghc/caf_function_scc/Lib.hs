-- Twin of tests/ghc/caf_function_scc/Lib.stg (see tests/ghc/README.md).
-- Functions built by CAFs of one module and applied under the other
-- module's CAF (see Main.hs).
module Lib (adder, inc5, add, add2) where

{-# NOINLINE adder #-}
adder :: Int -> Int -> Int
adder n = let k :: Int -> Int
              k y = y + n
           in k

inc5 :: Int -> Int
inc5 = adder 5

{-# NOINLINE add #-}
add :: Int -> Int -> Int
add a b = a + b

add2 :: Int -> Int
add2 = {-# SCC "mk" #-} add 2
