-- Twin of tests/ghc/tautology.stg (see README.md): Hutton's tautology
-- checker (Programming in Haskell, 2nd ed., ch. 8.6) with the chapter's
-- exercise (`Or`, `Equiv`). Propositions as data, top-level propositions
-- p1..p6 (CAFs: nested constructor applications), substitutions as
-- association lists searched by `find` (`head` of a filter), `eval` by
-- equations using base's `not`, `&&`, `||`, `<=` and `==` on Bool (the last
-- two evaluate both sides), `vars` with `++`, `bools` by two maps over a
-- where-bound recursive result, `rmdups`, `substs` with a where-bound
-- partial application `zv = zip vs`, `isTaut` by `and` over a where-bound
-- evaluator, a user `zip` and `snd`; the tautology checks under scc
-- `taut`. Characters are Ints (65 is 'A'). Sections and comprehensions of
-- the book are named where-bound functions.
import Prelude hiding (snd, zip)

data Prop
  = Const Bool
  | Var Int
  | Not Prop
  | And Prop Prop
  | Or Prop Prop
  | Imply Prop Prop
  | Equiv Prop Prop

data Out = Out [Bool] [Int] [Int] [[Bool]] [Int] deriving (Show)

type Assoc k v = [(k, v)]

type Subst = Assoc Int Bool

{-# NOINLINE p1 #-}
p1 :: Prop
p1 = And (Var 65) (Not (Var 65))

{-# NOINLINE p2 #-}
p2 :: Prop
p2 = Imply (And (Var 65) (Var 66)) (Var 65)

{-# NOINLINE p3 #-}
p3 :: Prop
p3 = Imply (Var 65) (And (Var 65) (Var 66))

{-# NOINLINE p4 #-}
p4 :: Prop
p4 = Imply (And (Var 65) (Imply (Var 65) (Var 66))) (Var 66)

{-# NOINLINE p5 #-}
p5 :: Prop
p5 = Equiv (Not (And (Var 65) (Var 66))) (Or (Not (Var 65)) (Not (Var 66)))

{-# NOINLINE p6 #-}
p6 :: Prop
p6 = Or (Imply (Var 67) (Const False)) (And (Var 66) (Var 67))

{-# NOINLINE snd #-}
snd :: (Int, Bool) -> Bool
snd (_, v) = v

{-# NOINLINE find #-}
find :: Int -> Subst -> Bool
find k t = head (map snd (filter same t))
  where
    same :: (Int, Bool) -> Bool
    same (k', _) = k == k'

{-# NOINLINE eval #-}
eval :: Subst -> Prop -> Bool
eval _ (Const b) = b
eval s (Var x) = find x s
eval s (Not p) = not (eval s p)
eval s (And p q) = eval s p && eval s q
eval s (Or p q) = eval s p || eval s q
eval s (Imply p q) = eval s p <= eval s q
eval s (Equiv p q) = eval s p == eval s q

{-# NOINLINE vars #-}
vars :: Prop -> [Int]
vars (Const _) = []
vars (Var x) = [x]
vars (Not p) = vars p
vars (And p q) = vars p ++ vars q
vars (Or p q) = vars p ++ vars q
vars (Imply p q) = vars p ++ vars q
vars (Equiv p q) = vars p ++ vars q

{-# NOINLINE bools #-}
bools :: Int -> [[Bool]]
bools 0 = [[]]
bools n = map addF bss ++ map addT bss
  where
    bss = bools (n - 1)
    addF :: [Bool] -> [Bool]
    addF bs = False : bs
    addT :: [Bool] -> [Bool]
    addT bs = True : bs

{-# NOINLINE rmdups #-}
rmdups :: [Int] -> [Int]
rmdups [] = []
rmdups (x : xs) = x : rest
  where
    rest = filter nx (rmdups xs)
    nx :: Int -> Bool
    nx y = y /= x

{-# NOINLINE zip #-}
zip :: [Int] -> [Bool] -> [(Int, Bool)]
zip (x : xs) (y : ys) = (x, y) : rest
  where
    rest = zip xs ys
zip _ _ = []

{-# NOINLINE substs #-}
substs :: Prop -> [Subst]
substs p = map zv (bools (length vs))
  where
    vs = rmdups (vars p)
    zv = zip vs

{-# NOINLINE isTaut #-}
isTaut :: Prop -> Bool
isTaut p = and (map ev (substs p))
  where
    ev :: Subst -> Bool
    ev s = eval s p

main :: IO ()
main = print (Out taut nvars nsubsts table trues)
  where
    props = [p1, p2, p3, p4, p5, p6]
    taut = {-# SCC "taut" #-} map isTaut props
    countVars :: Prop -> Int
    countVars p = length (rmdups (vars p))
    nvars = map countVars props
    countSubsts :: Prop -> Int
    countSubsts p = length (substs p)
    nsubsts = map countSubsts props
    row :: Subst -> [Bool]
    row s = map snd s
    table = map row (substs p6)
    countTrue :: Prop -> Int
    countTrue p = length (filter evp (substs p))
      where
        evp :: Subst -> Bool
        evp s = eval s p
    trues = map countTrue props
