-- Twin of tests/ghc/bodies.stg (see README.md): a particle simulation
-- on records: Body has five fields (x y vx vy mass), World five (width
-- height tick energy bodies); every step rebuilds both functionally:
-- gravity and a damped bounce (quot on negative velocities), wrap-around
-- by mod, a pull towards the centroid (two thunks shared by every body of
-- the step), velocities clamped by nested comparisons; the world run 25
-- steps by a lazy loop (a chain of world thunks forced at the end) and
-- by a strict one (each step's energy forced with seq); local functions
-- under sccs (mover escaping as a thunk's value, physics kept local),
-- nested cases on two bodies at once (closest).
data Body = Body Int Int Int Int Int

data World = World Int Int Int Int [Body]

{-# NOINLINE sgn #-}
sgn :: Int -> Int
sgn d = if d > 0 then 1 else if d < 0 then -1 else 0

{-# NOINLINE clampV #-}
clampV :: Int -> Int
clampV v = if v > 5 then 5 else if v < -5 then -5 else v

{-# NOINLINE move #-}
move :: Int -> Int -> Body -> Body
move w h b = case b of
  Body x y vx vy m ->
    let vy1 = vy - 1
        x1 = (x + vx) `mod` w
        y1 = y + vy1
     in if y1 < 0
          then let vy2 = negate vy1 `quot` 2 in Body x1 0 vx vy2 m
          else if y1 >= h then let y2 = h - 1 in Body x1 y2 vx 0 m else Body x1 y1 vx vy1 m

{-# NOINLINE pull #-}
pull :: Int -> Int -> Body -> Body
pull cx cy b = case b of
  Body x y vx vy m ->
    let ax = sgn (cx - x)
        ay = sgn (cy - y)
        vx1 = clampV (vx + ax)
        vy1 = clampV (vy + ay)
     in Body x y vx1 vy1 m

{-# NOINLINE energy #-}
energy :: [Body] -> Int
energy bs = case bs of
  [] -> 0
  b : rest -> case b of
    Body _ _ vx vy m -> let e = m * (vx * vx + vy * vy) `div` 2 in e + energy rest

{-# NOINLINE sumX #-}
sumX :: [Body] -> Int
sumX bs = case bs of
  [] -> 0
  b : rest -> case b of
    Body x _ _ _ _ -> x + sumX rest

{-# NOINLINE sumY #-}
sumY :: [Body] -> Int
sumY bs = case bs of
  [] -> 0
  b : rest -> case b of
    Body _ y _ _ _ -> y + sumY rest

{-# NOINLINE stepWorld #-}
stepWorld :: World -> World
stepWorld wd = case wd of
  World w h t _ bs ->
    let mv =
          {-# SCC "mover" #-}
          ( let mvb :: Body -> Body
                mvb b = move w h b
             in mvb
          )
        bs1 = map mv bs
        n = length bs1
        cx = sumX bs1 `div` n
        cy = sumY bs1 `div` n
        bs2 =
          {-# SCC "physics" #-}
          ( let g :: Body -> Body
                g b = pull cx cy b
             in map g bs1
          )
        t1 = t + 1
        e1 = energy bs2
     in World w h t1 e1 bs2

{-# NOINLINE runLazy #-}
runLazy :: Int -> World -> World
runLazy k wd = if k == 0 then wd else let wd1 = stepWorld wd in runLazy (k - 1) wd1

{-# NOINLINE runStrict #-}
runStrict :: Int -> World -> World
runStrict k wd =
  if k == 0
    then wd
    else
      let wd1 = stepWorld wd
          e = case wd1 of
            World _ _ _ en _ -> en
       in e `seq` runStrict (k - 1) wd1

{-# NOINLINE mkBodies #-}
mkBodies :: Int -> Int -> [Body]
mkBodies n seed =
  if n == 0
    then []
    else
      let s1 = (seed * 1103515245 + 12345) `mod` 2147483648
          x = s1 `mod` 64
          y = s1 `div` 64 `mod` 32
          vx = s1 `div` 2048 `mod` 11 - 5
          vy = s1 `div` 32768 `mod` 7 - 3
          m = s1 `div` 262144 `mod` 5 + 1
          rest = mkBodies (n - 1) s1
       in Body x y vx vy m : rest

{-# NOINLINE closest #-}
closest :: [Body] -> Int
closest bs = case bs of
  a : b : rest -> case a of
    Body xa ya _ _ _ -> case b of
      Body xb yb _ _ _ ->
        let d = abs (xa - xb) + abs (ya - yb)
            r = closest (b : rest)
         in min d r
  _ -> 1000

{-# NOINLINE initWorld #-}
initWorld :: [Body] -> World
initWorld bs = World 64 32 0 0 bs

{-# NOINLINE summary #-}
summary :: World -> [Int]
summary wd = case wd of
  World w h t e bs -> let sx = sumX bs; sy = sumY bs; c = closest bs in [w, h, t, e, sx, sy, c]

main :: IO ()
main =
  print
    ( let bs0 = mkBodies 12 42
          w0 = initWorld bs0
          wl = runLazy 25 w0
          ws = runStrict 25 w0
          s1 = summary wl
          s2 = summary ws
          s3 = {-# SCC "again" #-} (let w5 = runLazy 5 ws in summary w5)
       in concat [s1, s2, s3]
    )
