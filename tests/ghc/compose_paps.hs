-- Twin of tests/ghc/compose_paps.stg (see README.md): composition
-- chains, flip, partial applications in lists, functions returning
-- functions of other arities (over- and under-saturated calls).
{-# NOINLINE add #-}
add :: Int -> Int -> Int
add x y = x + y

{-# NOINLINE sub #-}
sub :: Int -> Int -> Int
sub x y = x - y

{-# NOINLINE mul3 #-}
mul3 :: Int -> Int -> Int -> Int
mul3 a b c = a * b * c

-- arity 1, returns a top-level function of arity 2
{-# NOINLINE pick #-}
pick :: Int -> Int -> Int -> Int
pick n = if n == 0 then add else sub

-- arity 2, returns a local function of arity 1
{-# NOINLINE mkAff #-}
mkAff :: Int -> Int -> Int -> Int
mkAff a b = let f :: Int -> Int
                f x = a * x + b
            in f

{-# NOINLINE twice #-}
twice :: (Int -> Int) -> Int -> Int
twice f x = let fx = f x in f fx

-- arity 1, returns a composition built by foldr
{-# NOINLINE pipeline #-}
pipeline :: [Int -> Int] -> Int -> Int
pipeline fs = let c = foldr (.) id fs in c

-- arity 3, returns a partial application of (.)
{-# NOINLINE compose3 #-}
compose3 :: (Int -> Int) -> (Int -> Int) -> (Int -> Int) -> Int -> Int
compose3 f g h = let gh = g . h in f . gh

main :: IO ()
main =
  print
    ( let a3 = add 3
          m = mkAff 2 1
          fl = flip sub 10
          tw = twice a3
          p = pipeline [a3, m, fl, tw]
          r1 = p 1
          r2 = pick 0 4 5
          r3 = pick 1 4 5
          q = pick 1 20
          r4 = q 6
          r5 = mkAff 3 4 5
          m2 = mul3 2
          m23 = m2 3
          r6 = m23 7
          h = flip mkAff 1
          r7 = h 2 5
          r8 = compose3 a3 m fl 1
          ys = map a3 [1, 2, 3]
          zs = map fl ys
       in r1 : r2 : r3 : r4 : r5 : r6 : r7 : r8 : zs
    )
