-- Twin of tests/ghc/scc_deep.stg (see README.md): statistics of a
-- binary tree computed under hand-written sccs nested up to six deep
-- (report: R1 > R2b > R3b > R5 > R6, each a let-bound thunk under the
-- one before), sccs on case scrutinees (sumL, sumR, probe) and on the
-- alternatives' bodies (leafW, join, flat, deep), the same labels
-- re-entered at every level of a recursion (growL/growR in build,
-- visit/down/join in walk), and sccs around let-bound functions, one
-- kept local (mkScale) and one escaping through a thunk (mkF) to be
-- applied under other sccs.
data T = Leaf Int | Br T T

{-# NOINLINE build #-}
build :: Int -> Int -> T
build d s =
  if d == 0
    then Leaf (s * 37 `rem` 101 - 50)
    else
      let l = {-# SCC "growL" #-} build (d - 1) (s * 2)
          r = {-# SCC "growR" #-} build (d - 1) (s * 2 + 1)
       in Br l r

{-# NOINLINE sumT #-}
sumT :: T -> Int
sumT t = case t of
  Leaf n -> n
  Br l r -> ({-# SCC "sumL" #-} sumT l) + ({-# SCC "sumR" #-} sumT r)

{-# NOINLINE depth #-}
depth :: T -> Int
depth t = case t of
  Leaf _ -> 0
  Br l r -> 1 + max (depth l) (depth r)

{-# NOINLINE levels #-}
levels :: T -> [Int]
levels t = case t of
  Leaf _ -> [1]
  Br l r ->
    let ll = levels l
        lr = levels r
        z = zipWith (+) ll lr
     in 1 : z

{-# NOINLINE walk #-}
walk :: Int -> T -> Int
walk k t =
  {-# SCC "visit" #-}
  ( case t of
      Leaf n -> {-# SCC "leafW" #-} (n * k)
      Br l r ->
        let a = {-# SCC "down" #-} walk (k + 1) l
            b = walk (k + 1) r
         in {-# SCC "join" #-} (a + b)
  )

{-# NOINLINE mapT #-}
mapT :: (Int -> Int) -> T -> T
mapT f t = case t of
  Leaf n -> let m = f n in Leaf m
  Br l r ->
    let l2 = mapT f l
        r2 = mapT f r
     in Br l2 r2

{-# NOINLINE scaleAll #-}
scaleAll :: Int -> T -> T
scaleAll k t =
  {-# SCC "mkScale" #-}
  ( let sc :: Int -> Int
        sc x = x * k + 1
     in mapT sc t
  )

{-# NOINLINE report #-}
report :: T -> [Int]
report t =
  {-# SCC "R1" #-}
  ( let total = {-# SCC "R2" #-} sumT t
        shape =
          {-# SCC "R2b" #-}
          ( let dep = {-# SCC "R3" #-} depth t
                wid =
                  {-# SCC "R3b" #-}
                  ( let lv = {-# SCC "R4" #-} levels t
                        mx = {-# SCC "R5" #-} ({-# SCC "R6" #-} foldl max 0 lv)
                     in mx
                  )
             in dep * 1000 + wid
          )
        wk = case {-# SCC "probe" #-} depth t of
          0 -> {-# SCC "flat" #-} 0
          d -> {-# SCC "deep" #-} walk d t
     in [total, shape, wk]
  )

main :: IO ()
main =
  print
    ( let t = build 8 1
          t2 = scaleAll 3 t
          f =
            {-# SCC "mkF" #-}
            ( let g :: Int -> Int
                  g x = x * x - 3
               in g
            )
          t3 = {-# SCC "apply" #-} mapT f t
          lone = build 0 5
          a = report t
          b = report t2
          c = {-# SCC "third" #-} report t3
          d = report lone
          e =
            {-# SCC "outer" #-}
            ( {-# SCC "mid" #-}
              ( let m1 = {-# SCC "leafT" #-} mapT f lone
                 in {-# SCC "inner" #-} sumT m1
              )
            )
       in concat [a, b, c, d, [e]]
    )
