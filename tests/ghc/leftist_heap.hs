-- Twin of tests/ghc/leftist_heap.stg (see README.md): a leftist heap
-- (merge, makeT, insert, deleteMin) used for heapsort two ways: inserting
-- one by one with foldl, and merging singletons pairwise; each merge binds
-- both recursive merges lazily and forces only one; an SCC on a case
-- scrutinee; a CAF input list read by both sorts and by a checker.
data H = L | N Int Int H H

next :: Int -> Int
next x = (x * 1103515245 + 12345) `rem` 2147483648

toVal :: Int -> Int
toVal x = (x `quot` 8) `rem` 100000

input :: [Int]
input = let seeds = iterate next 2024; ss = take 1500 seeds in map toVal ss

rank :: H -> Int
rank h = case h of
  L -> 0
  N r _ _ _ -> r

makeT :: Int -> H -> H -> H
makeT x a b =
  if rank a >= rank b
    then let rk1 = rank b + 1 in N rk1 x a b
    else let rk2 = rank a + 1 in N rk2 x b a

merge :: H -> H -> H
merge h1 h2 = case h1 of
  L -> h2
  N _ x a1 b1 -> case h2 of
    L -> h1
    N _ y a2 b2 ->
      let m1 = merge b1 h2
          m2 = merge h1 b2
       in case {-# SCC "cmp" #-} (x <= y) of
            True -> makeT x a1 m1
            False -> makeT y a2 m2

single :: Int -> H
single x = N 1 x L L

insF :: H -> Int -> H
insF h x = let s = single x in merge s h

drain :: H -> [Int]
drain h = case h of
  L -> []
  N _ x a b -> let h2 = merge a b; rest = drain h2 in x : rest

mergePairs :: [H] -> [H]
mergePairs hs = case hs of
  (a : r1) -> case r1 of
    (b : rest) -> let m = merge a b; ms = mergePairs rest in m : ms
    [] -> hs
  [] -> hs

mergeAll :: [H] -> H
mergeAll hs = case hs of
  [] -> L
  (h : more) -> case more of
    [] -> h
    _ -> let hs2 = mergePairs hs in mergeAll hs2

sortA :: [Int]
sortA = let h = foldl insF L input in drain h

sortB :: [Int]
sortB = let singles = map single input; h = {-# SCC "pairs" #-} mergeAll singles in drain h

ascending :: [Int] -> Int
ascending xs = case xs of
  [] -> 1
  (x : rest) -> case rest of
    [] -> 1
    (y : _) -> if x <= y then ascending rest else 0

same :: [Int] -> [Int] -> Int
same xs ys = case xs of
  [] -> case ys of
    [] -> 1
    _ -> 0
  (x : xt) -> case ys of
    [] -> 0
    (y : yt) -> if x == y then same xt yt else 0

checkSum :: [Int] -> Int
checkSum xs = go xs 0
  where
    go :: [Int] -> Int -> Int
    go ys acc = case ys of
      [] -> acc
      (y : yt) -> let acc1 = (acc * 31 + y) `rem` 1000000007 in go yt acc1

main :: IO ()
main =
  print
    ( let a = sortA
          b = sortB
          okA = ascending a
          okB = ascending b
          eq = same a b
          cs = checkSum a
          ci = {-# SCC "inputSum" #-} checkSum input
          firsts = take 5 b
       in [okA, okB, eq, cs, ci] ++ firsts
    )
