-- Twin of tests/ghc/mutual3_fix.stg (see README.md): three-way mutual
-- recursion at top level (ra -> rb -> rc -> ra, an scc in rb, a thunk in
-- rc) entered at two different functions, three-way local mutual
-- recursion (loc3.p, loc3.q, loc3.r), a fix combinator written by hand
-- whose knot is a function-valued thunk, and continuations built under
-- two different sccs, invoked only when the recursion ends.
{-# NOINLINE ra #-}
ra :: Int -> Int
ra n = if n <= 0 then 0 else 1 + rb (n - 1)

{-# NOINLINE rb #-}
rb :: Int -> Int
rb n = if n <= 0 then 10 else {-# SCC "inb" #-} (2 + rc (n - 1))

{-# NOINLINE rc #-}
rc :: Int -> Int
rc n = if n <= 0 then 100 else let t = ra (n - 1) in t * 2

{-# NOINLINE loc3 #-}
loc3 :: Int -> Int -> Int
loc3 k n = let p :: Int -> Int
               p i = if i >= n then 0 else k + q (i + 1)
               q :: Int -> Int
               q i = if i >= n then 1 else {-# SCC "lq" #-} r (i + 1)
               r :: Int -> Int
               r i = if i >= n then 2 else let u = p (i + 1) in u + i
           in p 0 + r 0

{-# NOINLINE fix #-}
fix :: ((Int -> Int) -> Int -> Int) -> Int -> Int
fix f = let x :: Int -> Int
            x = f x
        in x

{-# NOINLINE factStep #-}
factStep :: (Int -> Int) -> Int -> Int
factStep rec n = if n == 0 then 1 else n * {-# SCC "recur" #-} rec (n - 1)

{-# NOINLINE mkStep #-}
mkStep :: Int -> (Int -> Int) -> Int -> Int
mkStep k = let go :: (Int -> Int) -> Int -> Int
               go rec n = if n == 0 then k else n + rec (n - 1)
           in go

{-# NOINLINE mkFin #-}
mkFin :: Int -> Int -> Int
mkFin m = let g :: Int -> Int
              g s = s * m
          in g

{-# NOINLINE negI #-}
negI :: Int -> Int
negI x = 0 - x

-- continuations built under "even" or "odd", all invoked at the end
{-# NOINLINE walk #-}
walk :: Int -> (Int -> Int) -> Int
walk n k = if n == 0 then k 0
           else if n `rem` 2 == 0
             then {-# SCC "even" #-} (let ke :: Int -> Int
                                          ke v = k (v + n)
                                      in walk (n - 1) ke)
             else {-# SCC "odd" #-} (let ko :: Int -> Int
                                         ko v = k (v * 2)
                                     in walk (n - 1) ko)

main :: IO ()
main =
  print
    ( let x = ra 7
          y = rb 5
          z = loc3 3 6
          fa = fix factStep 5
          st = {-# SCC "mkst" #-} mkStep 100
          fb = fix st 4
          kf = {-# SCC "fin" #-} mkFin 3
          w = walk 4 kf
          w2 = walk 3 negI
       in [x, y, z, fa, fb, w, w2]
    )
