-- Twin of tests/ghc/travel_thunks.stg (see README.md).
-- Thunks that travel: a record and a list of thunks built under mkRec and
-- mkList, passed through relay functions and forced far away, some twice,
-- some never; a chain of three CAFs forced in different orders.

data R = R Int Int Int (Int -> Int)

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE sumTo #-}
sumTo :: Int -> Int
sumTo n = if n == 0 then 0 else n + sumTo (n - 1)

{-# NOINLINE boom #-}
boom :: Int -> Int
boom n = n `div` 0

{-# NOINLINE add #-}
add :: Int -> Int -> Int
add a b = a + b

{-# NOINLINE mkRec #-}
mkRec :: Int -> R
mkRec n = let a = sq n; b = sumTo n; c = boom n; g = add n in R a b c g

{-# NOINLINE useR #-}
useR :: R -> Int -> Int
useR r k = case r of R a b c g -> a + a + g b + k

{-# NOINLINE relay2 #-}
relay2 :: R -> Int -> Int
relay2 r k = useR r k

{-# NOINLINE relay1 #-}
relay1 :: R -> Int -> Int
relay1 r k = relay2 r (k + 1)

{-# NOINLINE mkList #-}
mkList :: Int -> [Int]
mkList n = let x = sq n; y = sumTo n; z = boom n in [x, y, z]

{-# NOINLINE pass #-}
pass :: [Int] -> Int -> Int
pass xs k = let pk = pick xs in pk + k

{-# NOINLINE pick #-}
pick :: [Int] -> Int
pick xs = case xs of
  [] -> 0
  (x : rest) -> case rest of
    [] -> x
    (y : more) -> x + y + x

{-# NOINLINE second #-}
second :: [Int] -> Int
second xs = case xs of
  [] -> 0
  (x : rest) -> case rest of
    [] -> 0
    (y : more) -> y

c1 :: Int
c1 = sumTo 10

c2 :: Int
c2 = sq c1 + 1

c3 :: Int
c3 = let k y = y + c2 in k c1

{-# NOINLINE useC #-}
useC :: Int -> Int
useC r = c2 + r

main :: IO ()
main =
  print
    ( let r = mkRec 5
          u = relay1 r 0
          v = relay2 r 10
          w = {-# SCC "far" #-} useR r 100
          ls = mkList 4
          p = pass ls 1
          q = second ls
          x3 = c3
          y1 = useC 7
          z2 = c1
       in [u, v, w, p, q, x3, y1, z2]
    )
