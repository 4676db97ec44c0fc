-- Twin of tests/ghc/sort_suite.stg (see README.md): textbook sorting.
-- Quicksort with where-bound partitions; merge sort splitting by a
-- where-bound pattern binding `(left, right) = splitAt ...` (a user
-- splitAt) with a where-bound merge that shadows the top-level one;
-- bottom-up merge sort; insertion sort as a point-free CAF
-- `isort = foldr insert []`; selection sort with a user minimum (a
-- where-bound accumulator loop) and delete; bubble sort by repeated
-- passes; sortedness by `and $ zipWith (<=) xs (tail xs)`; sccs
-- "quicksort" and "mergesort" on two of main's where-bound sorts.
import Prelude hiding (minimum, splitAt)

data Out = Out [Int] [Int] [Int] [Int] [Int] [Int] [Bool] deriving (Show)

{-# NOINLINE qsort #-}
qsort :: [Int] -> [Int]
qsort [] = []
qsort (p : xs) = qsort smaller ++ (p : rest)
  where
    smaller = filter below xs
    larger = filter notBelow xs
    rest = qsort larger
    below :: Int -> Bool
    below x = x < p
    notBelow :: Int -> Bool
    notBelow x = x >= p

{-# NOINLINE splitAt #-}
splitAt :: Int -> [Int] -> ([Int], [Int])
splitAt k xs = (front, back)
  where
    front = take k xs
    back = drop k xs

{-# NOINLINE msort #-}
msort :: [Int] -> [Int]
msort xs
  | n < 2 = xs
  | otherwise = merge (msort left) (msort right)
  where
    n = length xs
    (left, right) = splitAt (n `div` 2) xs
    merge :: [Int] -> [Int] -> [Int]
    merge [] ys = ys
    merge as [] = as
    merge (a : as) (b : bs)
      | a <= b = let m1 = merge as (b : bs) in a : m1
      | otherwise = let m2 = merge (a : as) bs in b : m2

{-# NOINLINE merge #-}
merge :: [Int] -> [Int] -> [Int]
merge [] ys = ys
merge xs [] = xs
merge (x : xs) (y : ys)
  | x <= y = x : restX
  | otherwise = y : restY
  where
    restX = merge xs (y : ys)
    restY = merge (x : xs) ys

{-# NOINLINE single #-}
single :: Int -> [Int]
single x = [x]

{-# NOINLINE mergePairs #-}
mergePairs :: [[Int]] -> [[Int]]
mergePairs (a : b : rest) = ab : more
  where
    ab = merge a b
    more = mergePairs rest
mergePairs xss = xss

{-# NOINLINE mergeAll #-}
mergeAll :: [[Int]] -> [Int]
mergeAll [] = []
mergeAll [xs] = xs
mergeAll xss = mergeAll (mergePairs xss)

{-# NOINLINE insert #-}
insert :: Int -> [Int] -> [Int]
insert x [] = [x]
insert x (y : ys)
  | x <= y = x : y : ys
  | otherwise = y : inserted
  where
    inserted = insert x ys

{-# NOINLINE isort #-}
isort :: [Int] -> [Int]
isort = foldr insert []

{-# NOINLINE minimum #-}
minimum :: [Int] -> Int
minimum (x : xs) = go x xs
  where
    go :: Int -> [Int] -> Int
    go m [] = m
    go m (y : ys)
      | y < m = go y ys
      | otherwise = go m ys

{-# NOINLINE delete #-}
delete :: Int -> [Int] -> [Int]
delete _ [] = []
delete x (y : ys)
  | x == y = ys
  | otherwise = let d = delete x ys in y : d

{-# NOINLINE ssort #-}
ssort :: [Int] -> [Int]
ssort [] = []
ssort xs = m : rest
  where
    m = minimum xs
    rest = ssort (delete m xs)

{-# NOINLINE bsort #-}
bsort :: [Int] -> [Int]
bsort xs = go xs (length xs)
  where
    go :: [Int] -> Int -> [Int]
    go ys 0 = ys
    go ys k = go (pass ys) (k - 1)
    pass :: [Int] -> [Int]
    pass (a : b : rest)
      | a > b = let sw = pass (a : rest) in b : sw
      | otherwise = let ok = pass (b : rest) in a : ok
    pass ys = ys

{-# NOINLINE isSorted #-}
isSorted :: [Int] -> Bool
isSorted xs = and $ zipWith (<=) xs (tail xs)

main :: IO ()
main = print $ Out q m bu i s b checks
  where
    next :: Int -> Int
    next r = (r * 37 + 11) `mod` 101
    xs = take 50 (iterate next 7)
    q = {-# SCC "quicksort" #-} qsort xs
    m = {-# SCC "mergesort" #-} msort xs
    bu = mergeAll (map single xs)
    i = isort xs
    s = ssort xs
    b = bsort xs
    checks = map isSorted [q, m, bu, i, s, b, xs]
