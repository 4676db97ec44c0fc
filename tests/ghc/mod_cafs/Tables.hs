-- Twin of tests/ghc/mod_cafs/Tables.stg (see tests/ghc/README.md).
module Tables (upto, sieve, primes, sqT, squareTable, lookupT, takeW) where

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b =
  if a > b
    then []
    else
      let a1 = a + 1
       in let rest = upto a1 b in a : rest

{-# NOINLINE sieve #-}
sieve :: [Int] -> [Int]
sieve xs = case xs of
  [] -> []
  (p : rest) ->
    let notMul :: Int -> Bool
        notMul x = x `rem` p /= 0
     in let rest2 = filter notMul rest
         in let ps = sieve rest2 in p : ps

{-# NOINLINE primes #-}
primes :: [Int]
primes = let ns = upto 2 400 in sieve ns

{-# NOINLINE sqT #-}
sqT :: Int -> Int
sqT x = x * x

{-# NOINLINE squareTable #-}
squareTable :: [Int]
squareTable = {-# SCC "fill" #-} (let ns = upto 0 60 in map sqT ns)

{-# NOINLINE lookupT #-}
lookupT :: [Int] -> Int -> Int
lookupT t i = case t of
  [] -> 0
  (x : xs) -> if i == 0 then x else let i1 = i - 1 in lookupT xs i1

{-# NOINLINE takeW #-}
takeW :: (Int -> Bool) -> [Int] -> [Int]
takeW p xs = case xs of
  [] -> []
  (y : ys) -> if p y then (let rest = takeW p ys in y : rest) else []
