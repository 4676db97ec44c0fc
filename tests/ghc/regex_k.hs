-- Twin of tests/ghc/regex_k.stg (see README.md): a backtracking regular
-- expression matcher with success continuations: Seq builds a local
-- continuation, Star a local recursive loop whose continuation calls the
-- loop back (capturing a, k, s); patterns are CAFs; every string over
-- {1,2,3} up to length 5 by concatMap with a local extender; a predicate
-- partial application under an scc given to filter.
data Re = Chr Int | Any | Eps | Seq Re Re | Alt Re Re | Star Re

{-# NOINLINE sameLen #-}
sameLen :: [Int] -> [Int] -> Bool
sameLen xs ys = length xs == length ys

{-# NOINLINE match #-}
match :: Re -> [Int] -> ([Int] -> Bool) -> Bool
match re cs k = case re of
  Eps -> k cs
  Chr c -> case cs of
    [] -> False
    (x : rest) -> if x == c then k rest else False
  Any -> case cs of
    [] -> False
    (x : rest) -> k rest
  Seq a b -> let kb rest = match b rest k in match a cs kb
  Alt a b -> case match a cs k of
    True -> True
    False -> match b cs k
  Star a ->
    let loop s = case k s of
          True -> True
          False -> let kl rest = if sameLen rest s then False else loop rest
                    in match a s kl
     in loop cs

{-# NOINLINE isNull #-}
isNull :: [Int] -> Bool
isNull xs = null xs

{-# NOINLINE matches #-}
matches :: Re -> [Int] -> Bool
matches re s = match re s isNull

{-# NOINLINE strs #-}
strs :: Int -> [[Int]]
strs n = if n == 0 then [[]] else
  let prev = strs (n - 1)
      ext :: [Int] -> [[Int]]
      ext s = [1 : s, 2 : s, 3 : s]
   in concatMap ext prev

{-# NOINLINE count #-}
count :: Re -> [[Int]] -> Int
count p ss = let mp = {-# SCC "pred" #-} matches p
                 ok = filter mp ss
              in length ok

-- 1*2
{-# NOINLINE p1 #-}
p1 :: Re
p1 = Seq (Star (Chr 1)) (Chr 2)

-- (1|2)*3.*
{-# NOINLINE p2 #-}
p2 :: Re
p2 = Seq (Star (Alt (Chr 1) (Chr 2))) (Seq (Chr 3) (Star Any))

-- (12?)*
{-# NOINLINE p3 #-}
p3 :: Re
p3 = Star (Seq (Chr 1) (Alt (Chr 2) Eps))

main :: IO ()
main =
  print
    ( let ss = concatMap strs [0 .. 5]
       in let a = count p1 ss
              b = count p2 ss
              c = {-# SCC "third" #-} count p3 ss
              n = length ss
           in [n, a, b, c]
    )
