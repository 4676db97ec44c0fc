-- Twin of tests/ghc/mod_caf_web/Top.stg (see tests/ghc/README.md).
module Top (plusT, report, pairs, countSmall) where

import Base
import Mid

{-# NOINLINE plusT #-}
plusT :: Int -> Int -> Int
plusT a b = a + b

{-# NOINLINE report #-}
report :: Int
report = let a = sumL evenSquares in a + bound

{-# NOINLINE pairs #-}
pairs :: [Int]
pairs = zipWithL plusT shifted lifted

{-# NOINLINE countSmall #-}
countSmall :: Int
countSmall = lengthL smallSq
