-- Twin of tests/ghc/lambda_nf.stg (see README.md): a normal-order
-- normaliser for the lambda calculus with de Bruijn indices (shift,
-- subst, beta, whnf, nf with an SCC on the scrutinee), run on Church
-- numerals: CAF numerals and combinators shared by three top-level tests.
data Term = Var Int | Lam Term | App Term Term

shift :: Int -> Int -> Term -> Term
shift d c t = case t of
  Var k -> if k >= c then let k2 = k + d in Var k2 else t
  Lam b -> let c1 = c + 1; b1 = shift d c1 b in Lam b1
  App f a -> let f1 = shift d c f; a1 = shift d c a in App f1 a1

subst :: Int -> Term -> Term -> Term
subst j s t = case t of
  Var k -> if k == j then s else t
  Lam b ->
    let j1 = j + 1
        s1 = shift 1 0 s
        b1 = subst j1 s1 b
     in Lam b1
  App f a -> let f1 = subst j s f; a1 = subst j s a in App f1 a1

beta :: Term -> Term -> Term
beta b a = let a1 = shift 1 0 a; r = subst 0 a1 b in shift (-1) 0 r

whnf :: Term -> Term
whnf t = case t of
  App f a -> case whnf f of
    Lam b -> whnf (beta b a)
    f1 -> App f1 a
  _ -> t

nf :: Term -> Term
nf t = case {-# SCC "hnf" #-} whnf t of
  Lam b -> let b1 = nf b in Lam b1
  App f a -> let f1 = nf f; a1 = nf a in App f1 a1
  v -> v

apps :: Int -> Term
apps k = if k == 0 then Var 0 else let k1 = k - 1; r = apps k1 in App (Var 1) r

church :: Int -> Term
church n = let b = apps n in Lam (Lam b)

unchurch :: Term -> Int
unchurch t = case t of
  Lam (Lam b) -> count b
  where
    count :: Term -> Int
    count u = case u of
      App _ r -> count r + 1
      _ -> 0

size :: Term -> Int
size t = go t 0
  where
    go :: Term -> Int -> Int
    go u acc = case u of
      Var _ -> acc + 1
      Lam b -> let acc1 = acc + 1 in go b acc1
      App f a -> let acc2 = go f acc; acc3 = acc2 + 1 in go a acc3

plusT :: Term
plusT = Lam (Lam (Lam (Lam (App (App (Var 3) (Var 1)) (App (App (Var 2) (Var 1)) (Var 0))))))

mulT :: Term
mulT = Lam (Lam (Lam (App (Var 2) (App (Var 1) (Var 0)))))

powT :: Term
powT = Lam (Lam (App (Var 0) (Var 1)))

cTwo :: Term
cTwo = church 2

cThree :: Term
cThree = church 3

testPlus :: Int -> Term
testPlus n = let cn = church n in nf (App (App plusT cTwo) cn)

testMul :: Int -> Term
testMul n =
  let cn = church n
      m = nf (App (App mulT cn) cThree)
   in nf (App (App mulT m) cTwo)

testPow :: Int -> Term
testPow n = let cn = church n in nf (App (App powT cTwo) cn)

main :: IO ()
main =
  print
    ( let p = testPlus 5
          m = testMul 40
          w = {-# SCC "pow" #-} testPow 8
          up = unchurch p
          sp = size p
          um = unchurch m
          sm = size m
          uw = unchurch w
          sw = {-# SCC "sizew" #-} size w
       in [up, sp, um, sm, uw, sw]
    )
