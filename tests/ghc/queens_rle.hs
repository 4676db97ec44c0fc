-- Twin of tests/ghc/queens_rle.stg (see README.md): n-queens by list
-- comprehensions desugared to concatMap (where-bound go/extend/tryQ
-- sharing a where-bound thunk `cols`), the boards flattened and
-- run-length encoded and decoded; a where-bound point-free `countW =
-- foldr addIf 0` (a thunk whose value is a partial application) called
-- directly, through map and through a user higher-order function.
data Run = Run Int Int

data Sp = Sp Int [Int]

absI :: Int -> Int
absI x = if x < 0 then 0 - x else x

safe :: Int -> [Int] -> Bool
safe q qs = check qs 1
  where
    check :: [Int] -> Int -> Bool
    check ps d = case ps of
      [] -> True
      (p : more) ->
        if p == q
          then False
          else if absI (p - q) == d then False else let d1 = d + 1 in check more d1

queens :: Int -> [[Int]]
queens n = go n
  where
    cols :: [Int]
    cols = [1 .. n]
    go :: Int -> [[Int]]
    go k =
      if k == 0
        then [[]]
        else
          let k1 = k - 1
              prev = go k1
           in concatMap extend prev
    extend :: [Int] -> [[Int]]
    extend qs = concatMap tryQ cols
      where
        tryQ :: Int -> [[Int]]
        tryQ q = if safe q qs then [q : qs] else []

spanEq :: Int -> [Int] -> Sp
spanEq x ys = case ys of
  [] -> Sp 0 ys
  (y : more) ->
    if y == x
      then case spanEq x more of
        Sp n tl -> let n2 = n + 1 in Sp n2 tl
      else Sp 0 ys

rle :: [Int] -> [Run]
rle xs = case xs of
  [] -> []
  (x : rest) -> case {-# SCC "span" #-} spanEq x rest of
    Sp n tl -> let n1 = n + 1; r = rle tl in Run x n1 : r

unrle :: [Run] -> [Int]
unrle rs = concatMap expandR rs
  where
    expandR :: Run -> [Int]
    expandR r = case r of
      Run x n -> replicate n x

sameL :: [Int] -> [Int] -> Int
sameL xs ys = case xs of
  [] -> case ys of
    [] -> 1
    _ -> 0
  (x : xt) -> case ys of
    [] -> 0
    (y : yt) -> if x == y then sameL xt yt else 0

runLen :: Run -> Int
runLen r = case r of
  Run _ n -> n

applyTo :: ([Int] -> Int) -> [[Int]] -> [Int]
applyTo f bs = case bs of
  [] -> []
  (b : more) -> let fb = f b; rest = applyTo f more in fb : rest

stats :: [[Int]] -> [Int]
stats boards = [c1, c2, c3]
  where
    countW :: [Int] -> Int
    countW = foldr addIf 0
      where
        addIf :: Int -> Int -> Int
        addIf x acc = if x > 4 then acc + 1 else acc
    c1 = let flat = concat boards in countW flat
    c2 = let cs = map countW boards in sum cs
    c3 = let ds = applyTo countW boards in sum ds

main :: IO ()
main =
  print
    ( let b6 = queens 6
          b8 = {-# SCC "q8" #-} queens 8
          flat = concat b8
          runs = rle flat
          back = unrle runs
          ok = sameL back flat
          nb6 = length b6
          nb8 = length b8
          nr = length runs
          lens = map runLen runs
          mx = foldr max 0 lens
          st = stats b8
          first = head b8
          tl = st ++ first
       in [nb6, nb8, nr, mx, ok] ++ tl
    )
