-- Twin of tests/ghc/mod_caf_chain/Base.stg (see tests/ghc/README.md).
-- Functions built by CAFs of one module and applied under the CAFs of
-- others, three modules deep (see Main.hs).
module Base (adder, add, inc5) where

{-# NOINLINE adder #-}
adder :: Int -> Int -> Int
adder n = let k :: Int -> Int
              k y = y + n
           in k

{-# NOINLINE add #-}
add :: Int -> Int -> Int
add a b = a + b

inc5 :: Int -> Int
inc5 = adder 5
