-- Twin of tests/ghc/change_pascal.stg (see README.md): textbook
-- combinatorics on lists. Coin change counted by overlapping equations
-- with an as-pattern and guards; greedy change with a where-bound
-- accumulator loop; fewest coins by a self-referential where-bound table
-- read with `!!`; 0/1 knapsack by foldl over rows (a where-bound step with
-- its own where clause); Pascal's triangle as a point-free CAF
-- `iterate nextRow [1]`, binomials by `!! n !! k`, row sums by a user
-- product and powers by a user until; a user last; any/or/and over rows.
import Prelude hiding (last, product, until)

data Item = Item Int Int

data Out = Out [Int] [Int] [Int] [Int] [[Int]] [Int] [Int] Int Bool Bool Int deriving (Show)

{-# NOINLINE ways #-}
ways :: Int -> [Int] -> Int
ways 0 _ = 1
ways _ [] = 0
ways n cs@(c : rest)
  | n < 0 = 0
  | otherwise = ways (n - c) cs + ways n rest

{-# NOINLINE greedy #-}
greedy :: Int -> [Int] -> [Int]
greedy n coins = go n coins []
  where
    go :: Int -> [Int] -> [Int] -> [Int]
    go 0 _ acc = reverse acc
    go _ [] acc = reverse acc
    go m (c : cs) acc
      | c <= m = go (m - c) (c : cs) (c : acc)
      | otherwise = go m cs acc

{-# NOINLINE minCoins #-}
minCoins :: [Int] -> Int -> Int
minCoins coins n = table !! n
  where
    table = map best [0 .. n]
    best :: Int -> Int
    best 0 = 0
    best i = 1 + minimum0 (map prev usable)
      where
        fits :: Int -> Bool
        fits c = c <= i
        usable = filter fits coins
        prev :: Int -> Int
        prev c = table !! (i - c)

{-# NOINLINE minimum0 #-}
minimum0 :: [Int] -> Int
minimum0 = foldr min 1000000

{-# NOINLINE knapsack #-}
knapsack :: Int -> [Item] -> Int
knapsack cap items = last (foldl addItem start items)
  where
    start = replicate (cap + 1) 0
    addItem :: [Int] -> Item -> [Int]
    addItem row (Item w v) = zipWith max row shifted
      where
        plusV :: Int -> Int
        plusV x = x + v
        shifted = replicate w 0 ++ map plusV row

{-# NOINLINE last #-}
last :: [Int] -> Int
last [x] = x
last (_ : xs) = last xs

{-# NOINLINE pascal #-}
pascal :: [[Int]]
pascal = iterate nextRow [1]
  where
    nextRow :: [Int] -> [Int]
    nextRow r = zipWith (+) (0 : r) (r ++ [0])

{-# NOINLINE binom #-}
binom :: Int -> Int -> Int
binom n k = pascal !! n !! k

{-# NOINLINE product #-}
product :: [Int] -> Int
product [] = 1
product (x : xs) = x * product xs

{-# NOINLINE until #-}
until :: (Int -> Bool) -> (Int -> Int) -> Int -> Int
until p f x
  | p x = x
  | otherwise = until p f (f x)

{-# NOINLINE powerAbove #-}
powerAbove :: Int -> Int
powerAbove n = until big double 1
  where
    big :: Int -> Bool
    big x = x >= n
    double :: Int -> Int
    double x = x * 2

{-# NOINLINE symmetric #-}
symmetric :: [Int] -> Bool
symmetric r = and (zipWith (==) r (reverse r))

main :: IO ()
main = print $ Out counts change fewest best rows sums bins pw sym hasBig prodRow
  where
    coins = [50, 25, 10, 5, 1]
    countFor :: Int -> Int
    countFor n = ways n coins
    counts = map countFor [0, 7, 30, 100]
    change = greedy 289 coins
    odd3 = [1, 3, 4]
    fewestFor :: Int -> Int
    fewestFor n = minCoins odd3 n
    fewest = map fewestFor [6, 10, 25]
    items = [Item 12 4, Item 2 2, Item 1 1, Item 4 10, Item 1 2]
    capFor :: Int -> Int
    capFor c = knapsack c items
    best = map capFor [5, 10, 15]
    rows = take 7 pascal
    rowSum :: [Int] -> Int
    rowSum r = sum r
    sums = map rowSum (take 12 pascal)
    binAt :: Int -> Int
    binAt k = binom 10 k
    bins = map binAt [0 .. 10]
    pw = powerAbove 1000
    sym = all symmetric (take 15 pascal)
    isBig :: [Int] -> Bool
    isBig r = any over r
      where
        over :: Int -> Bool
        over x = x > 400
    hasBig = or (map isBig (take 12 pascal))
    prodRow = product (pascal !! 6)
