-- Twin of tests/ghc/modular.stg (see README.md): number theory on Int
-- where the sign conventions matter: the extended Euclidean algorithm
-- with div/mod on negative operands (a three-field result taken apart by
-- nested cases), modular inverses and a CAF table of all inverses mod
-- 211 checked by and/zipWith, the Chinese remainder theorem folded over
-- a list of residue records, digits in base -2 by quot/rem with the
-- remainder corrected when negative, balanced ternary by mod/div, powers
-- with a negative base, a strict (seq) and a lazy (foldl) digit sum over
-- a range of negative and positive numbers; sccs egcdRec, negStep,
-- inverses, crtFold.
data Tri = Tri Int Int Int

data Res = Res Int Int

{-# NOINLINE egcd #-}
egcd :: Int -> Int -> Tri
egcd a b =
  if b == 0
    then Tri a 1 0
    else
      let m = a `mod` b
       in case {-# SCC "egcdRec" #-} egcd b m of
            Tri g s t -> let t1 = s - (a `div` b) * t in Tri g t t1

{-# NOINLINE modInv #-}
modInv :: Int -> Int -> Int
modInv a m = case egcd a m of
  Tri g s _ -> if g /= 1 && g /= -1 then 0 else (s * g) `mod` m

{-# NOINLINE crtStep #-}
crtStep :: Res -> Res -> Res
crtStep acc x = case acc of
  Res r1 m1 -> case x of
    Res r2 m2 ->
      let inv = modInv m1 m2
          k = ((r2 - r1) * inv) `mod` m2
          r = r1 + m1 * k
          mm = m1 * m2
       in Res r mm

{-# NOINLINE crt #-}
crt :: [Res] -> Int
crt rs = case {-# SCC "crtFold" #-} foldl crtStep (Res 0 1) rs of
  Res r _ -> r

{-# NOINLINE toNegBase #-}
toNegBase :: Int -> Int -> [Int]
toNegBase b n =
  if n == 0
    then []
    else
      let r = n `rem` b
          q = n `quot` b
       in if r < 0
            then let q1 = q + 1; r1 = r - b; ds = {-# SCC "negStep" #-} toNegBase b q1 in r1 : ds
            else let ds2 = toNegBase b q in r : ds2

{-# NOINLINE fromBase #-}
fromBase :: Int -> [Int] -> Int
fromBase b ds = foldr step 0 ds
  where
    step :: Int -> Int -> Int
    step d acc = d + b * acc

{-# NOINLINE balTern #-}
balTern :: Int -> [Int]
balTern n =
  if n == 0
    then []
    else
      let r = n `mod` 3
       in if r == 2
            then let n1 = (n + 1) `div` 3; ts = balTern n1 in (-1) : ts
            else let n2 = n `div` 3; ts2 = balTern n2 in r : ts2

{-# NOINLINE powMod #-}
powMod :: Int -> Int -> Int -> Int
powMod b e m =
  if e == 0
    then 1
    else
      let h = powMod b (e `quot` 2) m
          h2 = h * h `mod` m
       in if e `rem` 2 == 0 then h2 else h2 * (b `mod` m) `mod` m

{-# NOINLINE inv211 #-}
inv211 :: Int -> Int
inv211 a = modInv a 211

{-# NOINLINE invTable #-}
invTable :: [Int]
invTable = {-# SCC "inverses" #-} (let as = [1 .. 210] in map inv211 as)

{-# NOINLINE okInv #-}
okInv :: Int -> Int -> Bool
okInv a i = a * i `mod` 211 == 1

{-# NOINLINE roundTrips #-}
roundTrips :: Int -> Int -> Int -> Int
roundTrips n hi acc =
  if n > hi
    then acc
    else
      let ds = toNegBase (-2) n
          ts = balTern n
          ok = fromBase (-2) ds == n && fromBase 3 ts == n
          acc1 = if ok then acc + 1 else acc
       in acc1 `seq` roundTrips (n + 1) hi acc1

{-# NOINLINE digitSum #-}
digitSum :: [Int] -> Int
digitSum ns = foldl step 0 ns
  where
    step :: Int -> Int -> Int
    step acc n = let ds = toNegBase (-2) n in acc + sum ds

main :: IO ()
main =
  print
    ( let e1 = egcd 240 46
          e2 = egcd (-240) 46
          e3 = egcd 240 (-46)
          e4 = egcd (-240) (-46)
          show3 :: Tri -> [Int]
          show3 t = case t of
            Tri g s u -> [g, s, u]
          sh1 = show3 e1
          sh2 = show3 e2
          sh3 = show3 e3
          sh4 = show3 e4
          ns = [1 .. 210]
          good = let oks = zipWith okInv ns invTable in and oks
          g1 = if good then 1 else 0
          c1 = crt [Res 2 3, Res 3 5, Res 2 7]
          c2 = crt [Res (-1) 4, Res 4 9, Res (-3) 25, Res 6 7]
          rt = roundTrips (-100) 100 0
          rng = [-80 .. 80]
          dsum = digitSum rng
          p1 = powMod (-3) 17 1000
          p2 = powMod (-7) 123 211
          p3 = powMod 5 210 211
          nb = toNegBase (-2) (-1234)
          bt = balTern (-1234)
          iv = inv211 (-5)
       in concat [sh1, sh2, sh3, sh4, [g1, c1, c2, rt, dsum, p1, p2, p3, iv], nb, bt]
    )
