-- Twin of tests/ghc/expr_calc.stg (see README.md): a textbook expression
-- evaluator. An expression type of eight constructors, an environment as
-- an association list searched by a lookup-like function with guards, a
-- Maybe-like result (`Err`/`Ok`) threaded through a where-bound helper for
-- the arithmetic, `let` bindings evaluated lazily, smart constructors by
-- overlapping equations (`addS (Lit 0) e = e`), a simplifier, size and
-- depth, and a pseudo-random generator of expressions with a where clause
-- of six bindings; scc "division" on one case alternative.
data Expr
  = Lit Int
  | Var Int
  | Add Expr Expr
  | Sub Expr Expr
  | Mul Expr Expr
  | Div Expr Expr
  | Let Int Expr Expr
  | IfZero Expr Expr Expr
  deriving (Show)

data Result = Err Int | Ok Int deriving (Show)

data Binding = Bind Int Result

data Out = Out [Result] [Result] [Int] [Int] Int Expr Result deriving (Show)

{-# NOINLINE lookupVar #-}
lookupVar :: Int -> [Binding] -> Result
lookupVar x [] = Err x
lookupVar x (Bind y r : rest)
  | x == y = r
  | otherwise = lookupVar x rest

{-# NOINLINE eval #-}
eval :: [Binding] -> Expr -> Result
eval env e = case e of
  Lit n -> Ok n
  Var x -> lookupVar x env
  Add a b -> arith plus a b
  Sub a b -> arith minus a b
  Mul a b -> arith times a b
  Div a b -> {-# SCC "division" #-} case eval env b of
    Err c -> Err c
    Ok 0 -> Err 0
    Ok y -> case eval env a of
      Err c -> Err c
      Ok x -> let q = x `div` y in Ok q
  Let x d body -> let r = eval env d in eval (Bind x r : env) body
  IfZero c t f -> case eval env c of
    Err code -> Err code
    Ok v
      | v == 0 -> eval env t
      | otherwise -> eval env f
  where
    arith :: (Int -> Int -> Int) -> Expr -> Expr -> Result
    arith op a b = case eval env a of
      Err c -> Err c
      Ok x -> case eval env b of
        Err c -> Err c
        Ok y -> let v = op x y in Ok v
    plus :: Int -> Int -> Int
    plus x y = x + y
    minus :: Int -> Int -> Int
    minus x y = x - y
    times :: Int -> Int -> Int
    times x y = x * y

{-# NOINLINE addS #-}
addS :: Expr -> Expr -> Expr
addS (Lit 0) e = e
addS e (Lit 0) = e
addS (Lit a) (Lit b) = Lit (a + b)
addS a b = Add a b

{-# NOINLINE mulS #-}
mulS :: Expr -> Expr -> Expr
mulS (Lit 0) _ = Lit 0
mulS (Lit 1) e = e
mulS e (Lit 1) = e
mulS a b = Mul a b

{-# NOINLINE simplify #-}
simplify :: Expr -> Expr
simplify e = case e of
  Add a b -> let sa = simplify a; sb = simplify b in addS sa sb
  Mul a b -> let ma = simplify a; mb = simplify b in mulS ma mb
  Sub a b -> let da = simplify a; db = simplify b in Sub da db
  Div a b -> let qa = simplify a; qb = simplify b in Div qa qb
  Let x d body -> let sd = simplify d; sbody = simplify body in Let x sd sbody
  IfZero c t f ->
    let sc = simplify c
        st = simplify t
        sf = simplify f
     in IfZero sc st sf
  _ -> e

{-# NOINLINE size #-}
size :: Expr -> Int
size e = case e of
  Lit _ -> 1
  Var _ -> 1
  Add a b -> 1 + size a + size b
  Sub a b -> 1 + size a + size b
  Mul a b -> 1 + size a + size b
  Div a b -> 1 + size a + size b
  Let _ d b -> 1 + size d + size b
  IfZero c t f -> 1 + size c + size t + size f

{-# NOINLINE next #-}
next :: Int -> Int
next s = (s * 1103515245 + 12345) `mod` 2147483648

{-# NOINLINE gen #-}
gen :: Int -> Int -> Expr
gen 0 s = if even (s `div` 7) then Lit (s `mod` 10) else Var (s `mod` 4)
gen d s
  | k == 0 = Add l r
  | k == 1 = Mul l r
  | k == 2 = Sub l r
  | k == 3 = Div l r
  | k == 4 = Let (s `mod` 4) l r
  | otherwise = IfZero c l r
  where
    k = (s `div` 16) `mod` 6
    s1 = next s
    s2 = next s1
    d1 = d - 1
    l = gen d1 s1
    r = gen d1 s2
    c = gen d1 (next s2)

main :: IO ()
main = print $ Out results simpResults sizes simpSizes errors demo demoVal
  where
    build :: Int -> Expr
    build s = gen 5 s
    exprs = map build [1 .. 40]
    env0 = [Bind 0 (Ok 3), Bind 1 (Ok 0), Bind 2 (Ok 7)]
    evalIn :: Expr -> Result
    evalIn ex = eval env0 ex
    results = map evalIn exprs
    simple = map simplify exprs
    simpResults = map evalIn simple
    sizes = map size exprs
    simpSizes = map size simple
    errors = length (filter isErr results)
    isErr :: Result -> Bool
    isErr res = case res of
      Err _ -> True
      Ok _ -> False
    demo = simplify (Add (Mul (Lit 1) (Var 2)) (Let 3 (Lit 0) (Add (Var 3) (Lit 0))))
    demoVal = eval env0 demo
