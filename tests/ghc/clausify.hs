-- Twin of tests/ghc/clausify.stg (see README.md).
-- A clausify-style symbolic rewrite on a small formula type: implications
-- eliminated, negations pushed in, Or distributed over And, each phase
-- under a hand-written SCC; sizes and evaluations under two environments
-- (a top-level predicate and a partial application).
data T = V Int | N T | A T T | O T T | I T T

gen :: Int -> T
gen k =
  if k == 0
    then V 1
    else
      let k1 = k - 1
          l = gen k1
          r = genR k1
       in I l (A r (N l))

genR :: Int -> T
genR k =
  if k == 0
    then V 2
    else
      let k1 = k - 1
          a = genR k1
       in O (V k) a

elim :: T -> T
elim t = case t of
  V _ -> t
  N a -> let a1 = elim a in N a1
  A a b -> let a2 = elim a; b2 = elim b in A a2 b2
  O a b -> let a3 = elim a; b3 = elim b in O a3 b3
  I a b -> let a4 = elim a; b4 = elim b in O (N a4) b4

nnf :: T -> T
nnf t = case t of
  N a -> neg a
  A a b -> let a1 = nnf a; b1 = nnf b in A a1 b1
  O a b -> let a2 = nnf a; b2 = nnf b in O a2 b2
  _ -> t

neg :: T -> T
neg t = case t of
  V _ -> N t
  N a -> nnf a
  A a b -> let a1 = neg a; b1 = neg b in O a1 b1
  O a b -> let a2 = neg a; b2 = neg b in A a2 b2
  _ -> t

cnf :: T -> T
cnf t = case t of
  A a b -> let a1 = cnf a; b1 = cnf b in A a1 b1
  O a b -> let a2 = cnf a; b2 = cnf b in dist a2 b2
  _ -> t

dist :: T -> T -> T
dist x y = case x of
  A a b -> let l = dist a y; r = dist b y in A l r
  _ -> case y of
    A c d -> let l2 = dist x c; r2 = dist x d in A l2 r2
    _ -> O x y

size :: T -> Int
size t = case t of
  V _ -> 1
  N a -> size a + 1
  A a b -> size a + size b + 1
  O a b -> size a + size b + 1
  I a b -> size a + size b + 1

evalT :: (Int -> Bool) -> T -> Bool
evalT env t = case t of
  V n -> env n
  N a -> if evalT env a then False else True
  A a b -> if evalT env a then evalT env b else False
  O a b -> if evalT env a then True else evalT env b
  I a b -> if evalT env a then evalT env b else True

envA :: Int -> Bool
envA n = n `rem` 2 == 0

below :: Int -> Int -> Bool
below k n = n < k

b2i :: Bool -> Int
b2i b = if b then 1 else 0

main :: IO ()
main =
  print
    ( let f = gen 3
          e = {-# SCC "ELIM" #-} elim f
          n = {-# SCC "NNF" #-} nnf e
          c = {-# SCC "CNF" #-} cnf n
          envB :: Int -> Bool
          envB = below 3
          sizes = map size [f, e, n, c]
          v1 = b2i (evalT envA f)
          v2 = b2i (evalT envA c)
          v3 = {-# SCC "evalB" #-} b2i (evalT envB c)
          v4 = b2i (evalT envB f)
       in sizes ++ [v1, v2, v3, v4]
    )
