-- The twin of lam_con_scc.stg: GHC's mkTick pushes the scc (k, or getS's
-- automatic one) into the lambda f and drops it there, because f's body is
-- a saturated constructor application; f is then allocated (or, closed,
-- made static) without the cost centre. mk2's f calls pairUp and keeps it.
data P = P Int Int

data St = St (Int -> P)

{-# NOINLINE runSt #-}
runSt :: St -> Int -> P
runSt m s = case m of St f -> f s

{-# NOINLINE pairUp #-}
pairUp :: Int -> Int -> P
pairUp a b = P a b

{-# NOINLINE getS #-}
getS :: St
getS = let f s = P s s in St f

{-# NOINLINE mk #-}
mk :: Int -> St
mk x = {-# SCC "k" #-} (let f s = P x s in St f)

{-# NOINLINE mk2 #-}
mk2 :: Int -> St
mk2 x = {-# SCC "k2" #-} (let f s = pairUp x s in St f)

{-# NOINLINE use #-}
use :: St -> Int
use m = case runSt m 5 of P a b -> a + b

main :: IO ()
main =
  print
    ( let q = mk 3
          q2 = mk2 3
          r = {-# SCC "u" #-} use q
          r2 = {-# SCC "u2" #-} use q2
          r3 = use getS
       in [r, r2, r3]
    )
