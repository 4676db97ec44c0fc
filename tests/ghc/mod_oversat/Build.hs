-- Twin of tests/ghc/mod_oversat/Build.stg (see tests/ghc/README.md).
module Build (mulAdd, addI, subI, pick, mkLin, curry3, opsFor) where

{-# NOINLINE mulAdd #-}
mulAdd :: Int -> Int -> Int -> Int
mulAdd k x y = k * x + y

{-# NOINLINE addI #-}
addI :: Int -> Int -> Int
addI x y = x + y

{-# NOINLINE subI #-}
subI :: Int -> Int -> Int
subI x y = x - y

{-# NOINLINE pick #-}
pick :: Int -> Int -> Int -> Int
pick c = if c == 0 then addI else if c == 1 then subI else mulAdd c

{-# NOINLINE mkLin #-}
mkLin :: Int -> Int -> Int -> Int
mkLin k = {-# SCC "lin" #-} mulAdd k

{-# NOINLINE curry3 #-}
curry3 :: Int -> Int -> Int -> Int
curry3 a =
  let g :: Int -> Int -> Int
      g b =
        let h :: Int -> Int
            h c = let bc = b * c in a + bc
         in h
   in g

{-# NOINLINE opsFor #-}
opsFor :: Int -> [Int -> Int -> Int]
opsFor n =
  let p :: Int -> Int -> Int
      p = pick n
      q :: Int -> Int -> Int
      q = mkLin n
      r :: Int -> Int -> Int
      r = curry3 n
   in [p, q, r]
