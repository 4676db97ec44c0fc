-- Twin of tests/ghc/mod_caf_web/Mid.stg (see tests/ghc/README.md).
module Mid (isEvenM, evenSquares, bound, addLimit, shifted, below, smallSq, addTo, addBound, lifted) where

import Base

{-# NOINLINE isEvenM #-}
isEvenM :: Int -> Bool
isEvenM x = x `rem` 2 == 0

{-# NOINLINE evenSquares #-}
evenSquares :: [Int]
evenSquares = filterL isEvenM squares

{-# NOINLINE bound #-}
bound :: Int
bound = limit * 2

{-# NOINLINE addLimit #-}
addLimit :: Int -> Int
addLimit x = x + limit

{-# NOINLINE shifted #-}
shifted :: [Int]
shifted = mapL addLimit squares

{-# NOINLINE below #-}
below :: Int -> Bool
below x = x < bound

{-# NOINLINE smallSq #-}
smallSq :: [Int]
smallSq = {-# SCC "small" #-} filterL below squares

{-# NOINLINE addTo #-}
addTo :: Int -> Int -> Int
addTo a b = a + b

{-# NOINLINE addBound #-}
addBound :: Int -> Int
addBound = addTo bound

{-# NOINLINE lifted #-}
lifted :: [Int]
lifted = mapL addBound evenSquares
