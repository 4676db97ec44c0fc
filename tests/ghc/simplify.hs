-- Twin of tests/ghc/simplify.stg (see README.md): an expression simplifier
-- with constant folding and unit laws over six constructors and nested
-- patterns, symbolic differentiation of polynomials (a CAF polynomial read
-- by several functions), evaluation in an environment, sizes; an SCC on a
-- case scrutinee inside simp and on let right-hand sides.
data E = Num Int | Var Int | Add E E | Mul E E | Neg E | Sub E E

simp :: E -> E
simp e = case e of
  Add a b -> let a1 = simp a; b1 = simp b in simpAdd a1 b1
  Mul a b -> let a2 = simp a; b2 = simp b in simpMul a2 b2
  Sub a b -> simp (Add a (Neg b))
  Neg a -> case {-# SCC "negs" #-} simp a of
    Num n -> let m = 0 - n in Num m
    Neg c -> c
    a4 -> Neg a4
  _ -> e

simpAdd :: E -> E -> E
simpAdd a b = case a of
  Num x -> case b of
    Num y -> let s = x + y in Num s
    _ -> if x == 0 then b else Add a b
  _ -> case b of
    Num y -> if y == 0 then a else Add b a
    _ -> Add a b

simpMul :: E -> E -> E
simpMul a b = case a of
  Num x -> case b of
    Num y -> let p = x * y in Num p
    _ -> if x == 0 then a else if x == 1 then b else Mul a b
  _ -> case b of
    Num y -> if y == 0 then b else if y == 1 then a else Mul b a
    _ -> Mul a b

deriv :: E -> E
deriv e = case e of
  Num _ -> Num 0
  Var v -> if v == 0 then Num 1 else Num 0
  Add a b -> let da = deriv a; db = deriv b in Add da db
  Sub a b -> let da2 = deriv a; db2 = deriv b in Sub da2 db2
  Mul a b -> let da3 = deriv a; db3 = deriv b in Add (Mul da3 b) (Mul a db3)
  Neg a -> let da4 = deriv a in Neg da4

eval :: [Int] -> E -> Int
eval env e = case e of
  Num n -> n
  Var v -> env !! v
  Add a b -> eval env a + eval env b
  Sub a b -> eval env a - eval env b
  Mul a b -> eval env a * eval env b
  Neg a -> 0 - eval env a

size :: E -> Int
size e = case e of
  Add a b -> size a + size b + 1
  Sub a b -> size a + size b + 1
  Mul a b -> size a + size b + 1
  Neg a -> size a + 1
  _ -> 1

power :: Int -> E
power k = if k == 0 then Num 1 else let k1 = k - 1; p = power k1 in Mul (Var 0) p

polyE :: Int -> E
polyE k =
  if k == 0
    then Num 3
    else
      let k1 = k - 1
          c = (k * 7) `rem` 5 - 2
          pk = power k
          rest = polyE k1
       in if c < 0 then Sub rest (Neg (Mul (Num c) pk)) else Add (Mul (Num c) pk) rest

poly :: E
poly = polyE 14

evalAt :: E -> [Int] -> [Int]
evalAt e xs = map at xs
  where
    at :: Int -> Int
    at x = eval [x, 1] e `rem` 1000003

main :: IO ()
main =
  print
    ( let d1 = {-# SCC "diff" #-} deriv poly
          s1 = simp d1
          d2 = deriv s1
          s2 = {-# SCC "simp2" #-} simp d2
          pts = [1 .. 6]
          v1 = evalAt d1 pts
          v2 = evalAt s1 pts
          v3 = evalAt s2 pts
          sz =
            let z1 = size poly
                z2 = size d1
                z3 = size s1
                z4 = size d2
                z5 = size s2
             in [z1, z2, z3, z4, z5]
          v23 = v2 ++ v3
          v123 = v1 ++ v23
       in sz ++ v123
    )
