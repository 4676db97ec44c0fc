-- Twin of tests/ghc/shared_fun.stg (see README.md): one function called
-- from CAFs, from main, and from thunks built under other sccs.
{-# NOINLINE weight #-}
weight :: Int -> Int
weight x = let h = x * 3 in h + 1

{-# NOINLINE table #-}
table :: [Int]
table = map weight [1, 2, 3]

{-# NOINLINE total #-}
total :: Int
total = {-# SCC "tot" #-} sum table

{-# NOINLINE base #-}
base :: Int
base = weight 10

{-# NOINLINE mk #-}
mk :: Int -> [Int]
mk n =
  {-# SCC "mkBody" #-}
  ( let w = weight n
        d = w * 2
     in [w, d]
  )

{-# NOINLINE force #-}
force :: Int -> Int -> Int
force t k = t + k

main :: IO ()
main =
  print
    ( let a = weight 5
          ts = mk 4
          p = {-# SCC "outer" #-} (let t = weight 7 in [t, t])
       in let b = {-# SCC "use" #-} sum ts
              c = total + weight 6
              e = case p of (t : rest) -> force t base
           in [a, b, c, e, base]
    )
