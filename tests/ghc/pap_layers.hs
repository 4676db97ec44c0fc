-- Twin of tests/ghc/pap_layers.stg (see README.md): partial
-- applications stacked in layers by a recursion: build n is a thunk
-- whose value is twist g n (n+1), a partial application of an arity-4
-- function to the partial application g = build (n-1) of the level
-- below, built under scc lvl inside a recursion whose cost centre is
-- cut back at each level; the bottom is mkBase's local function. The
-- layered functions are kept in a CAF (deep = build 6), in a list, given
-- one argument too many (build 3 7), applied in strict loops, under
-- nested sccs, and a partial application of one (twist deep 2) is built
-- under two sccs and applied later.
{-# NOINLINE twist #-}
twist :: (Int -> Int) -> Int -> Int -> Int -> Int
twist f a b x = f (a * x + b) `rem` 100003

{-# NOINLINE mkBase #-}
mkBase :: Int -> Int -> Int
mkBase k =
  let h :: Int -> Int
      h x = x * k - 1
   in h

{-# NOINLINE build #-}
build :: Int -> Int -> Int
build n =
  if n == 0
    then mkBase 3
    else
      let g = build (n - 1)
          p = {-# SCC "lvl" #-} twist g n
          q = p (n + 1)
       in q

{-# NOINLINE levels #-}
levels :: Int -> [Int -> Int]
levels n =
  if n == 0
    then []
    else let f = build n; fs = levels (n - 1) in f : fs

{-# NOINLINE sumAp #-}
sumAp :: [Int -> Int] -> Int -> Int
sumAp fs x = case fs of
  [] -> 0
  f : rest -> let v = f x; r = sumAp rest x in v + r

{-# NOINLINE loop #-}
loop :: (Int -> Int) -> Int -> Int -> Int
loop f n acc =
  if n == 0
    then acc
    else
      let acc1 = (acc + f n) `rem` 1000003
       in acc1 `seq` loop f (n - 1) acc1

{-# NOINLINE deep #-}
deep :: Int -> Int
deep = build 6

main :: IO ()
main =
  print
    ( let a = {-# SCC "useDeep" #-} (deep 1 + deep 2)
          fs = levels 5
          b = {-# SCC "useLv" #-} sumAp fs 5
          c = build 3 7
          d = {-# SCC "again" #-} (let k = build 2 in k 1 + k 2 + k 3)
          e = loop deep 300 0
          tw = {-# SCC "o1" #-} ({-# SCC "o2" #-} twist deep 2)
          t3 = tw 3
          f = loop t3 200 1
          g = {-# SCC "lv2" #-} (let gs = levels 3; sg = sumAp gs in loop sg 100 2)
       in [a, b, c, d, e, f, g]
    )
