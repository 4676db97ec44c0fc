-- Twin of tests/ghc/scc_places.stg (see README.md): sccs in
-- unusual places: around a case scrutinee and inside its alternatives,
-- around a bare top-level function returned for an over-saturated call,
-- around a call whose result is a function then applied to two more
-- arguments, around a thunk whose value is a partial application, and
-- the same labels re-pushed at every level of a recursion.
{-# NOINLINE add #-}
add :: Int -> Int -> Int
add x y = x + y

{-# NOINLINE sub #-}
sub :: Int -> Int -> Int
sub x y = x - y

{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

-- an scc around the scrutinee, others in the alternatives
{-# NOINLINE classify #-}
classify :: Int -> Int
classify n = if {-# SCC "scrut" #-} (sq n > 10)
               then {-# SCC "big" #-} (sq n - 10)
               else {-# SCC "small" #-} add n 100

-- arity 1, returns a top-level function under an scc
{-# NOINLINE pick #-}
pick :: Int -> Int -> Int -> Int
pick n = if n > 0 then {-# SCC "pa" #-} add else {-# SCC "pb" #-} sub

-- an scc around a call whose result is a function: sel 1 3 4
{-# NOINLINE sel #-}
sel :: Int -> Int -> Int -> Int
sel n = {-# SCC "get" #-} pick n

-- arity 1, returns a partial application built under an scc
{-# NOINLINE mkp #-}
mkp :: Int -> Int -> Int -> Int
mkp k = {-# SCC "inmk" #-} (if k > 0 then add3 k else add3 0)

{-# NOINLINE app2 #-}
app2 :: (Int -> Int -> Int) -> Int -> Int -> Int
app2 f x y = f x y

-- the same two labels at every level of the recursion
{-# NOINLINE countdown #-}
countdown :: Int -> Int
countdown n = if n == 0 then 0 else {-# SCC "lvl" #-} (1 + {-# SCC "mid" #-} countdown (n - 1))

main :: IO ()
main =
  print
    ( let a = classify 2
          b = classify 5
          c = sel 1 3 4
          d = sel 0 3 4
          p = {-# SCC "pp" #-} mkp 1
          q = mkp 0
          g = mkp 2 3 4
          h = countdown 3
          e = p 5 6 + p 7 8
          f = app2 q 10 20
       in [a, b, c, d, e, f, g, h]
    )
