-- Twin of tests/ghc/unify_types.stg (see README.md): type inference for
-- simply typed de Bruijn terms by unification over a triangular
-- substitution (an association list), the fresh-variable counter and the
-- substitution threaded in a state; an occurs check; results summarised by
-- where-bound helpers three levels deep.
data Ty = TV Int | TInt | Fun Ty Ty

data Expr = EVar Int | ELam Expr | EApp Expr Expr | ELit Int | EAdd Expr Expr

data Bind = Bind Int Ty

data St = St [Bind] Int

data R = R Ty St

lookupB :: Int -> [Bind] -> Maybe Ty
lookupB v s = case s of
  [] -> Nothing
  (Bind w t : rest) -> if v == w then Just t else lookupB v rest

walk :: [Bind] -> Ty -> Ty
walk s t = case t of
  TV v -> case lookupB v s of
    Nothing -> t
    Just u -> walk s u
  _ -> t

apply :: [Bind] -> Ty -> Ty
apply s t = case walk s t of
  Fun a b -> let a1 = apply s a; b1 = apply s b in Fun a1 b1
  wt -> wt

occurs :: [Bind] -> Int -> Ty -> Bool
occurs s v t = case walk s t of
  TV w -> w == v
  TInt -> False
  Fun a b -> if occurs s v a then True else occurs s v b

bindV :: [Bind] -> Int -> Ty -> Maybe [Bind]
bindV s v t = case walk s t of
  wt -> case wt of
    TV w -> if w == v then Just s else Just (Bind v wt : s)
    _ -> if occurs s v wt then Nothing else Just (Bind v wt : s)

unify :: [Bind] -> Ty -> Ty -> Maybe [Bind]
unify s a b = case walk s a of
  wa -> case wa of
    TV v -> bindV s v b
    TInt -> case walk s b of
      TInt -> Just s
      TV w -> Just (Bind w TInt : s)
      _ -> Nothing
    Fun a1 a2 -> case walk s b of
      TV w -> bindV s w wa
      Fun b1 b2 -> case unify s a1 b1 of
        Nothing -> Nothing
        Just s2 -> unify s2 a2 b2
      _ -> Nothing

infer :: [Ty] -> Expr -> St -> Maybe R
infer env e st = case e of
  ELit _ -> Just (R TInt st)
  EVar i -> let t = env !! i in Just (R t st)
  ELam b -> case st of
    St s n ->
      let n2 = n + 1
       in case infer (TV n : env) b (St s n2) of
            Nothing -> Nothing
            Just (R tb st2) -> Just (R (Fun (TV n) tb) st2)
  EApp f a -> case infer env f st of
    Nothing -> Nothing
    Just (R tf st1) -> case infer env a st1 of
      Nothing -> Nothing
      Just (R ta st2) -> case st2 of
        St s n ->
          let n1 = n + 1
           in case {-# SCC "unifyApp" #-} unify s tf (Fun ta (TV n)) of
                Nothing -> Nothing
                Just s3 -> Just (R (TV n) (St s3 n1))
  EAdd a b -> case infer env a st of
    Nothing -> Nothing
    Just (R ta st1) -> case infer env b st1 of
      Nothing -> Nothing
      Just (R tb st2) -> case st2 of
        St s n -> case unify s ta TInt of
          Nothing -> Nothing
          Just s2 -> case unify s2 tb TInt of
            Nothing -> Nothing
            Just s3 -> Just (R TInt (St s3 n))

measure :: Ty -> Int
measure t = case t of
  TV _ -> 1
  TInt -> 2
  Fun a b -> let l = measure a; r = measure b in l + r + 1

typeOf :: Expr -> Int
typeOf e = case infer [] e (St [] 0) of
  Nothing -> -1
  Just (R t st) -> case st of
    St s n -> let full = apply s t; unused = n * 1000 in measure full

churchE :: Int -> Expr
churchE n = let bn = body n in ELam (ELam bn)
  where
    body :: Int -> Expr
    body k = if k == 0 then EVar 0 else let k1 = k - 1; r = body k1 in EApp (EVar 1) r

sComb :: Expr
sComb = ELam (ELam (ELam (EApp (EApp (EVar 2) (EVar 0)) (EApp (EVar 1) (EVar 0)))))

kComb :: Expr
kComb = ELam (ELam (EVar 1))

mkE :: Int -> Expr
mkE k = case k `rem` 5 of
  0 -> churchE k
  1 -> let c = churchE k; inc = ELam (EAdd (EVar 0) (ELit 1)) in EApp (EApp c inc) (ELit k)
  2 -> ELam (EApp (EVar 0) (EVar 0))
  3 -> EApp (EApp sComb kComb) kComb
  _ -> let c2 = churchE k in EApp (EApp c2 c2) (ELit 0)

summary :: [Int] -> Int
summary xs = foldl step 0 xs
  where
    step :: Int -> Int -> Int
    step acc x = (acc * 3 + score x) `rem` 1000003
      where
        score :: Int -> Int
        score y = if y < 0 then 7 else norm y
          where
            norm :: Int -> Int
            norm z = z `rem` 5

main :: IO ()
main =
  print
    ( let ks = [1 .. 20]
          es = map mkE ks
          ts = map typeOf es
          s1 = {-# SCC "summ" #-} summary ts
          firsts = take 10 ts
       in s1 : firsts
    )
