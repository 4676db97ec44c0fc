-- Twin of tests/ghc/countdown.stg (see README.md): Hutton's countdown
-- problem (Programming in Haskell, 2nd ed., ch. 9) on a small instance.
-- Operators and expressions as data, `valid` and `apply` by overlapping
-- equations, `values`, `eval` (a list of zero or one results), `subs`,
-- `interleave`, `perms`, `choices`, `split`, `exprs` and `combine`, the
-- brute-force `solutions`, and the fused `results`/`combine'`/`solutions'`.
-- The book's list comprehensions are written as concatMap, map and filter
-- over where-bound functions nested up to three deep (GHC gives a
-- comprehension's loop no cost centre, STG has no unnamed loop), sections
-- `(x:)` as named functions, and `==` on lists and `elem` on lists of
-- lists as user functions `eqL` and `elemL` (base's have no cost centres,
-- the STG has no list equality). `ops` is a list literal: a CAF with a
-- cost centre in GHC, a thunk whose body is a `let` in the STG. The two
-- searches run under sccs `brute` and `fused`.
import Prelude hiding (fst)

data Op = Add | Sub | Mul | Div deriving (Show)

data Expr = Val Int | App Op Expr Expr deriving (Show)

data Out = Out Bool Bool Int [Expr] Int [Expr] [Int] deriving (Show)

{-# NOINLINE valid #-}
valid :: Op -> Int -> Int -> Bool
valid Add _ _ = True
valid Sub x y = x > y
valid Mul _ _ = True
valid Div x y = x `mod` y == 0

{-# NOINLINE apply #-}
apply :: Op -> Int -> Int -> Int
apply Add x y = x + y
apply Sub x y = x - y
apply Mul x y = x * y
apply Div x y = x `div` y

{-# NOINLINE values #-}
values :: Expr -> [Int]
values (Val n) = [n]
values (App _ l r) = values l ++ vr
  where
    vr = values r

{-# NOINLINE eval #-}
eval :: Expr -> [Int]
eval (Val n)
  | n > 0 = [n]
  | otherwise = []
eval (App o l r) = concatMap fromX (eval l)
  where
    fromX :: Int -> [Int]
    fromX x = concatMap fromY (eval r)
      where
        fromY :: Int -> [Int]
        fromY y
          | valid o x y = [v]
          | otherwise = []
          where
            v = apply o x y

{-# NOINLINE subs #-}
subs :: [Int] -> [[Int]]
subs [] = [[]]
subs (x : xs) = yss ++ rest
  where
    yss = subs xs
    rest = map addx yss
    addx :: [Int] -> [Int]
    addx ys = x : ys

{-# NOINLINE interleave #-}
interleave :: Int -> [Int] -> [[Int]]
interleave x [] = [[x]]
interleave x (y : ys) = (x : y : ys) : rest
  where
    rest = map addy (interleave x ys)
    addy :: [Int] -> [Int]
    addy zs = y : zs

{-# NOINLINE perms #-}
perms :: [Int] -> [[Int]]
perms [] = [[]]
perms (x : xs) = concat (map ix (perms xs))
  where
    ix = interleave x

{-# NOINLINE choices #-}
choices :: [Int] -> [[Int]]
choices ns = concat (map perms (subs ns))

{-# NOINLINE eqL #-}
eqL :: [Int] -> [Int] -> Bool
eqL [] [] = True
eqL (x : xs) (y : ys) = x == y && eqL xs ys
eqL _ _ = False

{-# NOINLINE elemL #-}
elemL :: [Int] -> [[Int]] -> Bool
elemL _ [] = False
elemL xs (ys : yss) = eqL xs ys || elemL xs yss

{-# NOINLINE solution #-}
solution :: Expr -> [Int] -> Int -> Bool
solution e ns n = elemL (values e) (choices ns) && eqL (eval e) [n]

{-# NOINLINE split #-}
split :: [Int] -> [([Int], [Int])]
split [] = []
split [_] = []
split (x : xs) = ([x], xs) : rest
  where
    rest = map addx (split xs)
    addx :: ([Int], [Int]) -> ([Int], [Int])
    addx (ls, rs) = (x : ls, rs)

{-# NOINLINE ops #-}
ops :: [Op]
ops = [Add, Sub, Mul, Div]

{-# NOINLINE combine #-}
combine :: Expr -> Expr -> [Expr]
combine l r = map app ops
  where
    app :: Op -> Expr
    app o = App o l r

{-# NOINLINE exprs #-}
exprs :: [Int] -> [Expr]
exprs [] = []
exprs [n] = [Val n]
exprs ns = concatMap fromSplit (split ns)
  where
    fromSplit :: ([Int], [Int]) -> [Expr]
    fromSplit (ls, rs) = concatMap fromL (exprs ls)
      where
        fromL :: Expr -> [Expr]
        fromL l = concatMap fromR (exprs rs)
          where
            fromR :: Expr -> [Expr]
            fromR r = combine l r

{-# NOINLINE solutions #-}
solutions :: [Int] -> Int -> [Expr]
solutions ns n = concatMap fromChoice (choices ns)
  where
    fromChoice :: [Int] -> [Expr]
    fromChoice ns' = filter ok (exprs ns')
    ok :: Expr -> Bool
    ok e = eqL (eval e) [n]

{-# NOINLINE combine' #-}
combine' :: (Expr, Int) -> (Expr, Int) -> [(Expr, Int)]
combine' (l, x) (r, y) = map mk (filter ok ops)
  where
    ok :: Op -> Bool
    ok o = valid o x y
    mk :: Op -> (Expr, Int)
    mk o = (App o l r, v)
      where
        v = apply o x y

{-# NOINLINE results #-}
results :: [Int] -> [(Expr, Int)]
results [] = []
results [n]
  | n > 0 = [(Val n, n)]
  | otherwise = []
results ns = concatMap fromSplit (split ns)
  where
    fromSplit :: ([Int], [Int]) -> [(Expr, Int)]
    fromSplit (ls, rs) = concatMap fromL (results ls)
      where
        fromL :: (Expr, Int) -> [(Expr, Int)]
        fromL lx = concatMap cl (results rs)
          where
            cl = combine' lx

{-# NOINLINE fst #-}
fst :: (Expr, Int) -> Expr
fst (e, _) = e

{-# NOINLINE solutions' #-}
solutions' :: [Int] -> Int -> [Expr]
solutions' ns n = concatMap fromChoice (choices ns)
  where
    fromChoice :: [Int] -> [Expr]
    fromChoice ns' = map fst (filter hit (results ns'))
    hit :: (Expr, Int) -> Bool
    hit (_, m) = m == n

main :: IO ()
main = print (Out ok1 ok2 nSlow firstSlow nFast firstFast counts)
  where
    e1 = App Mul (App Add (Val 1) (Val 3)) (Val 7)
    ok1 = solution e1 [1, 3, 7, 10] 28
    ok2 = solution e1 [1, 3, 10] 28
    slow = {-# SCC "brute" #-} solutions [1, 3, 7] 21
    nSlow = length slow
    firstSlow = take 2 slow
    fast = {-# SCC "fused" #-} solutions' [1, 3, 7, 10] 17
    nFast = length fast
    firstFast = take 3 fast
    countFor :: Int -> Int
    countFor t = length (solutions' [2, 5, 6] t)
    counts = map countFor [3, 7, 16, 30]
