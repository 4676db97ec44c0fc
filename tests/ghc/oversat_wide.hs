-- Twin of tests/ghc/oversat_wide.stg (see README.md): over-saturated
-- calls of wide functions: curve (arity 3) returns a local function of
-- arity 4 that shares the thunk base between its calls; pickF (arity 1)
-- returns the top-level lerp (arity 5) or a partial application of
-- curve; both given all their arguments at once (up to eight), directly,
-- through partial applications held by thunks (pc = curve 2, c4 = c3 4),
-- through appliers app2/app4, under sccs (fix5, q, mk) and inside a
-- strict recursive loop whose cost centre is cut back at each call
-- (sweep); partial applications of the local function kept in a list.
{-# NOINLINE curve #-}
curve :: Int -> Int -> Int -> Int -> Int -> Int -> Int -> Int
curve a b c =
  let base = a * 100 + b * 10 + c
      shape :: Int -> Int -> Int -> Int -> Int
      shape w x y z = base + w * x - y * z
   in shape

{-# NOINLINE lerp #-}
lerp :: Int -> Int -> Int -> Int -> Int -> Int
lerp lo hi num den t = lo + (hi - lo) * (num * t `quot` den) `quot` 100

{-# NOINLINE pickF #-}
pickF :: Int -> Int -> Int -> Int -> Int -> Int -> Int
pickF k = if k > 0 then lerp else curve 1 2

{-# NOINLINE sweep #-}
sweep :: Int -> Int -> Int -> Int
sweep k n acc =
  if n == 0
    then acc
    else
      let v = pickF k n 1 2 3 4
          acc1 = acc + v
       in acc1 `seq` sweep k (n - 1) acc1

{-# NOINLINE app2 #-}
app2 :: (Int -> Int -> Int) -> Int -> Int -> Int
app2 f x y = f x y

{-# NOINLINE app4 #-}
app4 :: (Int -> Int -> Int -> Int -> Int) -> Int -> Int -> Int -> Int -> Int
app4 f w x y z = f w x y z

{-# NOINLINE mapPair #-}
mapPair :: [Int -> Int -> Int] -> Int -> Int -> [Int]
mapPair fs x y = case fs of
  [] -> []
  f : rest -> let v = app2 f x y; vs = mapPair rest x y in v : vs

{-# NOINLINE loop2 #-}
loop2 :: (Int -> Int -> Int) -> Int -> Int -> Int
loop2 f n acc = if n == 0 then acc else let acc1 = f n acc `rem` 10007 in acc1 `seq` loop2 f (n - 1) acc1

main :: IO ()
main =
  print
    ( let c3 = curve 1 2 3
          c4 = c3 4
          c5 = {-# SCC "fix5" #-} c4 5
          r1 = c5 6 7 + c4 1 1 1 + c3 0 0 0 0
          pc = curve 2
          r2 = pc 3 4 5 6 7 8 + curve 9 8 7 6 5 4 3
          r3 = pickF 1 0 100 3 4 50 + pickF 0 3 4 5 6 7
          q = {-# SCC "q" #-} pc 1 2
          r4 = app4 q 1 2 3 4 + app4 c3 4 3 2 1
          m = {-# SCC "mk" #-} curve 5 5
          r5 = app2 c5 1 2 + m 5 1 1 1 1
          s1 = sweep 1 150 0
          s2 = sweep 0 150 0
          d1 = curve 0 0 0 1 1
          d2 = lerp 0 1000 7
          d3 = pickF 1 0 50 3
          d4 = m 0 0 1
          r6 = mapPair [c5, d1, d2, d3, d4] 3 (-4)
          r7 = loop2 c5 200 0 + loop2 d3 200 1 + loop2 d4 100 (-1)
       in [r1, r2, r3, r4, r5, s1, s2, r7] ++ r6
    )
