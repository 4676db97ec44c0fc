-- Twin of tests/ghc/env_interp.stg (see README.md): an expression
-- interpreter with an association-list environment.
data Expr
  = Num Int
  | Var Int
  | Add Expr Expr
  | Sub Expr Expr
  | Mul Expr Expr
  | Let Int Expr Expr
  | IfZ Expr Expr Expr

{-# NOINLINE lookupEnv #-}
lookupEnv :: Int -> [(Int, Int)] -> Int
lookupEnv x env = case env of
  [] -> 0
  ((y, v) : rest) -> if x == y then v else lookupEnv x rest

{-# NOINLINE eval #-}
eval :: [(Int, Int)] -> Expr -> Int
eval env e = case e of
  Num n -> n
  Var x -> lookupEnv x env
  Add a b -> {-# SCC "evAdd" #-} (eval env a + eval env b)
  Sub a b -> eval env a - eval env b
  Mul a b -> let va = eval env a
                 vb = eval env b
              in va * vb
  Let x rhs body -> let v = {-# SCC "bind" #-} eval env rhs
                     in eval ((x, v) : env) body
  IfZ c t f -> if eval env c == 0 then eval env t else eval env f

{-# NOINLINE run #-}
run :: Expr -> Int
run e = {-# SCC "top" #-} eval [] e

main :: IO ()
main =
  print
    ( let e1 = Let 1 (Add (Num 3) (Num 4)) (Mul (Var 1) (Var 1))
          e2 = Let 1 (Num 5) (Let 2 (Mul (Var 1) (Num 2)) (IfZ (Sub (Var 2) (Num 10)) (Var 1) (Var 2)))
          e3 = IfZ (Num 1) (Var 9) (Add (Var 7) (Num 1))
       in let e4 = Let 3 e1 (Mul (Sub (Var 3) (Num 1)) (Sub (Var 3) (Num 1)))
           in let a = run e1
                  b = run e2
                  c = run e3
                  d = eval [] e4
               in [a, b, c, d]
    )
