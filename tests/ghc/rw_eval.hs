-- Twin of tests/ghc/rw_eval.stg (see README.md): a Reader/Writer evaluator
-- as plain functions: a computation is Env -> R (value and log); retR,
-- bindR, tellR, askR, localR top-level; eval of arity 1 returns partial
-- applications; an scc'd operator thunk passed to binop; `Let` via localR.
data E = Num Int | Var Int | Add E E | Sub E E | Mul E E | Let Int E E
data Env = Empty | Bind Int Int Env
data R = R Int [Int]

{-# NOINLINE retR #-}
retR :: Int -> Env -> R
retR v env = R v []

{-# NOINLINE bindR #-}
bindR :: (Env -> R) -> (Int -> Env -> R) -> Env -> R
bindR m k env = case m env of
  R a w1 -> case k a env of
    R b w2 -> let w = w1 ++ w2 in R b w

{-# NOINLINE tellR #-}
tellR :: Int -> Env -> R
tellR x env = R x [x]

{-# NOINLINE lookupE #-}
lookupE :: Int -> Env -> Int
lookupE x env = case env of
  Empty -> 0
  Bind y v rest -> if x == y then v else lookupE x rest

{-# NOINLINE askR #-}
askR :: Int -> Env -> R
askR x env = let v = lookupE x env in R v []

{-# NOINLINE localR #-}
localR :: Int -> Int -> (Env -> R) -> Env -> R
localR x v m env = m (Bind x v env)

{-# NOINLINE plusOp #-}
plusOp :: Int -> Int -> Int
plusOp a b = a + b

{-# NOINLINE minusOp #-}
minusOp :: Int -> Int -> Int
minusOp a b = a - b

{-# NOINLINE timesOp #-}
timesOp :: Int -> Int -> Int
timesOp a b = a * b

{-# NOINLINE binop #-}
binop :: (Int -> Int -> Int) -> E -> E -> Env -> R
binop op a b =
  let ma = eval a
      k1 x = let mb = eval b
                 k2 y = let r = op x y in tellR r
              in bindR mb k2
   in bindR ma k1

{-# NOINLINE eval #-}
eval :: E -> Env -> R
eval e = case e of
  Num n -> retR n
  Var x -> askR x
  Add a b -> binop plusOp a b
  Sub a b -> binop minusOp a b
  Mul a b -> let op = {-# SCC "mulop" #-} timesOp in binop op a b
  Let x a b ->
    let ma = eval a
        k v = let mb = eval b in localR x v mb
     in bindR ma k

-- let x1 = x1 + n in ... nested n deep, then a product
{-# NOINLINE chain #-}
chain :: Int -> E
chain n = if n == 0 then Mul (Var 1) (Sub (Var 2) (Num 3)) else
  let rest = chain (n - 1)
      x = n `rem` 2 + 1
   in Let x (Add (Var x) (Num n)) rest

{-# NOINLINE run #-}
run :: E -> R
run e = let m = eval e in {-# SCC "top" #-} m Empty

{-# NOINLINE summary #-}
summary :: R -> [Int]
summary r = case r of
  R v w -> let n = length w
               f = take 3 w
            in v : n : f

main :: IO ()
main =
  print
    ( let e1 = chain 40
       in let r1 = run e1
              r2 = run (Let 2 (Num 7) (Mul (Var 2) (Add (Var 2) (Num 1))))
           in let s1 = summary r1
                  s2 = summary r2
               in s1 ++ s2
    )
