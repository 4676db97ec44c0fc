-- Twin of tests/ghc/wide_paps.stg (see README.md): functions of arity 5
-- to 8 (poly6, clamp5, pick7, hash8, blend4) partially applied at every
-- arity, one link at a time (p1 .. p5, h1 .. h7, q1 .. q6, one under an
-- scc); partial applications kept in a record built by mkKit (in the
-- branches of an if), in a list, in CAFs (cubic = poly6 0, sqPlus = cubic
-- 0 1 0 1, clampByte = clamp5 0 255) and chosen by a thunk; mkPoly (arity
-- 2, returning a partial application) and shaper (arity 1, returning a
-- local function of arity 4) given all their arguments at once.
data Kit = Kit (Int -> Int) (Int -> Int -> Int) (Int -> Int -> Int -> Int) (Int -> Int -> Int -> Int -> Int)

{-# NOINLINE poly6 #-}
poly6 :: Int -> Int -> Int -> Int -> Int -> Int -> Int
poly6 c4 c3 c2 c1 c0 x = (((c4 * x + c3) * x + c2) * x + c1) * x + c0

{-# NOINLINE blend4 #-}
blend4 :: Int -> Int -> Int -> Int -> Int
blend4 w a b t = (a * (w - t) + b * t) `quot` w

{-# NOINLINE clamp5 #-}
clamp5 :: Int -> Int -> Int -> Int -> Int -> Int
clamp5 lo hi s d x =
  let y = x * s + d
   in if y < lo then lo else if y > hi then hi else y

{-# NOINLINE pick7 #-}
pick7 :: Int -> Int -> Int -> Int -> Int -> Int -> Int -> Int
pick7 a b c d e f k = case k `rem` 6 of
  0 -> a
  1 -> b
  2 -> c
  3 -> d
  4 -> e
  _ -> f

{-# NOINLINE hash8 #-}
hash8 :: Int -> Int -> Int -> Int -> Int -> Int -> Int -> Int -> Int
hash8 a b c d e f m x = (((a * x + b) * x + c) * d + e * x - f) `mod` m

{-# NOINLINE cubic #-}
cubic :: Int -> Int -> Int -> Int -> Int -> Int
cubic = poly6 0

{-# NOINLINE sqPlus #-}
sqPlus :: Int -> Int
sqPlus = cubic 0 1 0 1

{-# NOINLINE clampByte #-}
clampByte :: Int -> Int -> Int -> Int
clampByte = clamp5 0 255

{-# NOINLINE mkPoly #-}
mkPoly :: Int -> Int -> Int -> Int -> Int -> Int -> Int
mkPoly a b = if a > b then poly6 a b else poly6 b a

{-# NOINLINE shaper #-}
shaper :: Int -> Int -> Int -> Int -> Int -> Int
shaper k =
  let sh :: Int -> Int -> Int -> Int -> Int
      sh lo hi d x = clamp5 lo hi k d x
   in sh

{-# NOINLINE mkKit #-}
mkKit :: Int -> Kit
mkKit n =
  let k1 = hash8 n 3 (-5) 7 11 (-13) 97
      k2 = pick7 n (-n) (n * 2) 0 1
      k3 = clamp5 (-n) n
      k4 = poly6 n 1
   in if n > 0 then Kit k1 k2 k3 k4 else Kit sqPlus k2 k3 k4

{-# NOINLINE useKit #-}
useKit :: Kit -> Int -> Int
useKit kit x = case kit of
  Kit f1 f2 f3 f4 -> f1 x + f2 x 1 + f3 x 2 (-1) + f4 x 0 1 x

{-# NOINLINE sumMap #-}
sumMap :: (Int -> Int) -> [Int] -> Int
sumMap f xs = case xs of
  [] -> 0
  y : ys -> let r = sumMap f ys in f y + r

{-# NOINLINE applyEach #-}
applyEach :: [Int -> Int] -> Int -> Int
applyEach fs x = case fs of
  [] -> 0
  f : rest -> let r = applyEach rest x in f x + r

{-# NOINLINE fold2 #-}
fold2 :: (Int -> Int -> Int) -> Int -> [Int] -> Int
fold2 f acc xs = case xs of
  [] -> acc
  y : ys -> let acc1 = f acc y in acc1 `seq` fold2 f acc1 ys

{-# NOINLINE kitSum #-}
kitSum :: Kit -> [Int] -> Int
kitSum kit xs = case xs of
  [] -> 0
  y : ys -> let r = kitSum kit ys in useKit kit y + r

main :: IO ()
main =
  print
    ( let xs = [-60 .. 60]
          p1 = poly6 1
          p2 = p1 (-3)
          p3 = p2 0
          p4 = p3 5
          p5 = p4 (-2)
          r1 = sumMap p5 xs
          r2 = sumMap sqPlus xs
          b2 = blend4 64 (-100)
          r3 = fold2 b2 7 xs
          pa :: Int -> Int
          pa x = mkPoly 1 (-1) 2 (-2) 3 x
          r4 = sumMap pa xs
          s1 = shaper 2
          s2 = s1 (-50)
          s3 = s2 50
          s4 = s3 1
          r5 = sumMap s4 xs + shaper 3 (-9) 9 0 4
          h1 = hash8 2
          h2 = h1 (-7)
          h3 = h2 5
          h4 = h3 3
          h5 = h4 (-1)
          h6 = h5 4
          h7 = h6 101
          g6 = h5 9 103
          g4 = h3 1 0 1 89
          r6 = applyEach [h7, g6, g4] 17 + sumMap h7 xs
          q1 = pick7 10
          q2 = q1 20
          q3 = {-# SCC "q3" #-} q2 30
          q4 = q3 40
          q5 = q4 50
          q6 = q5 60
          r7 = sumMap q6 xs + q3 1 2 3 5
          tf = if r1 > 0 then p4 else p3 1
          cb = clampByte 9 100
          r8 = sumMap cb xs + tf (-2) 7 + tf 3 4
          kp = mkKit 3
          kn = mkKit (-4)
          r9 = kitSum kp xs + kitSum kn xs
       in [r1, r2, r3, r4, r5, r6, r7, r8, r9]
    )
