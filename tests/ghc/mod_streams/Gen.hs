-- Twin of tests/ghc/mod_streams/Gen.stg (see tests/ghc/README.md).
module Gen (succI, sq, isOddG, plusG, collatz, nats, fibsFrom, fibs, squaresS, collatzFrom) where

import Stream

{-# NOINLINE succI #-}
succI :: Int -> Int
succI x = x + 1

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE isOddG #-}
isOddG :: Int -> Bool
isOddG x = x `rem` 2 /= 0

{-# NOINLINE plusG #-}
plusG :: Int -> Int -> Int
plusG a b = a + b

{-# NOINLINE collatz #-}
collatz :: Int -> Int
collatz x = if x `rem` 2 == 0 then x `quot` 2 else 3 * x + 1

{-# NOINLINE nats #-}
nats :: [Int]
nats = iterateS succI 1

{-# NOINLINE fibsFrom #-}
fibsFrom :: Int -> Int -> [Int]
fibsFrom a b = let c = a + b in let rest = fibsFrom b c in a : rest

{-# NOINLINE fibs #-}
fibs :: [Int]
fibs = fibsFrom 0 1

{-# NOINLINE squaresS #-}
squaresS :: [Int]
squaresS = mapS sq nats

{-# NOINLINE collatzFrom #-}
collatzFrom :: Int -> [Int]
collatzFrom n = iterateS collatz n
