-- Twin of tests/ghc/voting.stg (see README.md): Hutton's voting
-- algorithms (Programming in Haskell, 2nd ed., ch. 7.7). First past the
-- post: `count x = length . matching` (arity 1, called with two
-- arguments), `rmdups`, `result` (an insertion sort, ch. 6, of where-bound
-- tallies), point-free `winner = snd . top`; the alternative vote:
-- point-free `rmempty = filter nonEmpty`, `elim x = map without`,
-- `rank = names . ranked` (CAFs whose values are partial applications,
-- the inner pieces where-bound) and the recursive `winner'` by a `case`
-- on a singleton list. Candidates are Ints in alphabetical order (1 Blue,
-- 2 Green, 3 Red); a second election of 40 ballots is made by a
-- pseudo-random `ballot` with where-bound lengths and a `rotate`, and
-- counted under scc `count40`. The book's signatures are monomorphic
-- here: with `Ord a =>` the point-free `winner` and `rank` would be
-- functions of a dictionary, entered at every use, not CAFs. Sections
-- are named functions, `sort` and `last`/`snd` user functions.
import Prelude hiding (fst, last, snd)

data Out = Out [Int] [Int] Int [Int] Int [Int] [Int] Int Int deriving (Show)

{-# NOINLINE votes #-}
votes :: [Int]
votes = [3, 1, 2, 1, 1, 3]

{-# NOINLINE count #-}
count :: Int -> [Int] -> Int
count x = length . matching
  where
    matching :: [Int] -> [Int]
    matching = filter same
    same :: Int -> Bool
    same y = y == x

{-# NOINLINE rmdups #-}
rmdups :: [Int] -> [Int]
rmdups [] = []
rmdups (x : xs) = x : rest
  where
    rest = filter differs (rmdups xs)
    differs :: Int -> Bool
    differs y = y /= x

{-# NOINLINE insert #-}
insert :: (Int, Int) -> [(Int, Int)] -> [(Int, Int)]
insert p [] = [p]
insert p@(n, c) (q@(m, d) : qs)
  | n < m || (n == m && c <= d) = p : q : qs
  | otherwise = q : rest
  where
    rest = insert p qs

{-# NOINLINE isort #-}
isort :: [(Int, Int)] -> [(Int, Int)]
isort [] = []
isort (x : xs) = insert x (isort xs)

{-# NOINLINE result #-}
result :: [Int] -> [(Int, Int)]
result vs = isort (map tally (rmdups vs))
  where
    tally :: Int -> (Int, Int)
    tally v = (n, v)
      where
        n = count v vs

{-# NOINLINE fst #-}
fst :: (Int, Int) -> Int
fst (n, _) = n

{-# NOINLINE snd #-}
snd :: (Int, Int) -> Int
snd (_, c) = c

{-# NOINLINE last #-}
last :: [(Int, Int)] -> (Int, Int)
last [x] = x
last (_ : xs) = last xs

{-# NOINLINE winner #-}
winner :: [Int] -> Int
winner = snd . top
  where
    top :: [Int] -> (Int, Int)
    top = last . result

{-# NOINLINE ballots #-}
ballots :: [[Int]]
ballots = [[3, 2], [1], [2, 3, 1], [1, 2, 3], [2]]

{-# NOINLINE rmempty #-}
rmempty :: [[Int]] -> [[Int]]
rmempty = filter nonEmpty
  where
    nonEmpty :: [Int] -> Bool
    nonEmpty [] = False
    nonEmpty _ = True

{-# NOINLINE elim #-}
elim :: Int -> [[Int]] -> [[Int]]
elim x = map without
  where
    without :: [Int] -> [Int]
    without = filter differs
    differs :: Int -> Bool
    differs y = y /= x

{-# NOINLINE rank #-}
rank :: [[Int]] -> [Int]
rank = names . ranked
  where
    names :: [(Int, Int)] -> [Int]
    names = map snd
    ranked :: [[Int]] -> [(Int, Int)]
    ranked = result . firsts
    firsts :: [[Int]] -> [Int]
    firsts = map head

{-# NOINLINE winner' #-}
winner' :: [[Int]] -> Int
winner' bs = case rank (rmempty bs) of
  [c] -> c
  (c : cs) -> winner' (elim c bs)

{-# NOINLINE next #-}
next :: Int -> Int
next s = (s * 75 + 74) `mod` 65537

{-# NOINLINE rotate #-}
rotate :: Int -> [Int] -> [Int]
rotate n xs = drop n xs ++ take n xs

{-# NOINLINE ballot #-}
ballot :: Int -> [Int]
ballot s = take len (rotate r [1, 2, 3, 4])
  where
    len = 1 + (s `div` 7) `mod` 4
    r = s `mod` 4

main :: IO ()
main = print (Out names1 counts1 win1 ranks av fptp40 rounds40 av40 nBallots)
  where
    res = result votes
    names1 = map snd res
    counts1 = map fst res
    win1 = winner votes
    ranks = rank ballots
    av = winner' ballots
    seeds = take 40 (iterate next 1)
    many = {-# SCC "count40" #-} map ballot seeds
    firstChoices = map head many
    fptp40 = map fst (result firstChoices)
    rounds40 = rank many
    av40 = winner' many
    nBallots = length (rmempty many)
