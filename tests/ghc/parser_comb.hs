-- Twin of tests/ghc/parser_comb.stg (see README.md): parser combinators
-- over Int tokens (0-9 digits, 10 '+', 11 '*', 12 '(', 13 ')').
type P = [Int] -> Maybe (Int, [Int])

{-# NOINLINE pSat #-}
pSat :: (Int -> Bool) -> [Int] -> Maybe (Int, [Int])
pSat p ts = case ts of
  [] -> Nothing
  (t : rest) -> if p t then Just (t, rest) else Nothing

{-# NOINLINE isTok #-}
isTok :: Int -> Int -> Bool
isTok c t = c == t

{-# NOINLINE isDigit #-}
isDigit :: Int -> Bool
isDigit t = t < 10

{-# NOINLINE pTok #-}
pTok :: Int -> [Int] -> Maybe (Int, [Int])
pTok c = let q :: Int -> Bool
             q t = isTok c t
          in pSat q

{-# NOINLINE pAlt #-}
pAlt :: P -> P -> [Int] -> Maybe (Int, [Int])
pAlt p q ts = case p ts of
  Nothing -> q ts
  r -> r

{-# NOINLINE pSeq #-}
pSeq :: (Int -> Int -> Int) -> P -> P -> [Int] -> Maybe (Int, [Int])
pSeq f p q ts = case p ts of
  Nothing -> Nothing
  Just (a, r1) -> case q r1 of
    Nothing -> Nothing
    Just (b, r2) -> let v = f a b in Just (v, r2)

{-# NOINLINE pMany #-}
pMany :: P -> [Int] -> Maybe (Int, [Int])
pMany p ts = case p ts of
  Nothing -> Just (0, ts)
  Just (a, r1) -> case pMany p r1 of
    Nothing -> Nothing
    Just (n, r2) -> let n1 = n + 1 in Just (n1, r2)

{-# NOINLINE second #-}
second :: Int -> Int -> Int
second a b = b

{-# NOINLINE first #-}
first :: Int -> Int -> Int
first a b = a

{-# NOINLINE add #-}
add :: Int -> Int -> Int
add a b = a + b

{-# NOINLINE mul #-}
mul :: Int -> Int -> Int
mul a b = a * b

{-# NOINLINE digit #-}
digit :: P
digit = pSat isDigit

-- expr = term '+' expr | term
{-# NOINLINE expr #-}
expr :: [Int] -> Maybe (Int, [Int])
expr ts =
  let plusE = pTok 10
      rhs = pSeq second plusE expr
      sumE = pSeq add term rhs
   in pAlt sumE term ts

-- term = factor '*' term | factor
{-# NOINLINE term #-}
term :: P
term =
  let timesT = pTok 11
      rhs = pSeq second timesT term
      prodT = pSeq mul factor rhs
   in pAlt prodT factor

-- factor = digit | '(' expr ')'
{-# NOINLINE factor #-}
factor :: [Int] -> Maybe (Int, [Int])
factor ts =
  let open = pTok 12
      close = pTok 13
      inner = pSeq second open expr
      paren = pSeq first inner close
   in pAlt digit paren ts

{-# NOINLINE parse #-}
parse :: [Int] -> Int
parse ts = case expr ts of
  Nothing -> -1
  Just (v, rest) -> if null rest then v else -2

{-# NOINLINE countDigits #-}
countDigits :: [Int] -> Int
countDigits ts = case pMany digit ts of
  Nothing -> -1
  Just (n, rest) -> n

main :: IO ()
main =
  print
    ( let t1 = [2, 10, 3, 11, 4]
          t2 = [12, 1, 10, 2, 13, 11, 3]
          t3 = [5, 10]
          t4 = [1, 2, 3, 10]
       in let a = parse t1
              b = {-# SCC "paren" #-} parse t2
              c = parse t3
              d = countDigits t4
           in [a, b, c, d]
    )
