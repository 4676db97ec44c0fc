-- Twin of tests/ghc/mod_records/Codec.stg (see tests/ghc/README.md).
module Codec (Codec (..), Counter (..), mkShift, mkMul, chain, mkCounter) where

data Codec = Codec (Int -> Int) (Int -> Int)

data Counter = Counter Int (Int -> Counter)

{-# NOINLINE mkShift #-}
mkShift :: Int -> Codec
mkShift k =
  let enc :: Int -> Int
      enc x = (x + k) `rem` 97
      dec :: Int -> Int
      dec x = (x + (97 - k)) `rem` 97
   in Codec enc dec

{-# NOINLINE mkMul #-}
mkMul :: Int -> Int -> Codec
mkMul k kinv =
  let enc :: Int -> Int
      enc x = (x * k) `rem` 97
      dec :: Int -> Int
      dec x = (x * kinv) `rem` 97
   in Codec enc dec

{-# NOINLINE chain #-}
chain :: Codec -> Codec -> Codec
chain c1 c2 = case c1 of
  Codec e1 d1 -> case c2 of
    Codec e2 d2 ->
      let enc :: Int -> Int
          enc x = let y = e1 x in e2 y
          dec :: Int -> Int
          dec x = let y = d2 x in d1 y
       in Codec enc dec

{-# NOINLINE mkCounter #-}
mkCounter :: Int -> Counter
mkCounter n =
  let step :: Int -> Counter
      step k = let n1 = n + k in mkCounter n1
   in Counter n step
