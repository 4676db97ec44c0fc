-- Twin of tests/ghc/rle_text.stg (see README.md): textbook list processing
-- on "text" (Ints: 0 a space, 1.. letters). A user span with a where-bound
-- pattern binding, group by span, run-length encoding as a point-free
-- composition `encode = runs . group` and decoding with concatMap and
-- replicate; words split by dropWhile and span (a pattern binding in a
-- let inside a case alternative); a Caesar shift mapped through a
-- where-bound partial application; palindromes by zipWith over reverse;
-- a user nub and a frequency table looked up by a lookup-like function;
-- the longest word by foldr.
import Prelude hiding (dropWhile, lookup, span)

data Run = Run Int Int deriving (Show)

data Freq = Freq Int Int deriving (Show)

data Out = Out [Run] Bool [Int] Int Int [[Int]] [Freq] [Int] Int deriving (Show)

{-# NOINLINE span #-}
span :: (Int -> Bool) -> [Int] -> ([Int], [Int])
span _ [] = ([], [])
span p xs@(x : rest)
  | p x = (x : ys, zs)
  | otherwise = ([], xs)
  where
    (ys, zs) = span p rest

{-# NOINLINE dropWhile #-}
dropWhile :: (Int -> Bool) -> [Int] -> [Int]
dropWhile _ [] = []
dropWhile p (x : xs)
  | p x = dropWhile p xs
  | otherwise = x : xs

{-# NOINLINE group #-}
group :: [Int] -> [[Int]]
group [] = []
group (x : xs) = (x : same) : groups
  where
    isX :: Int -> Bool
    isX y = y == x
    (same, rest) = span isX xs
    groups = group rest

{-# NOINLINE toRun #-}
toRun :: [Int] -> Run
toRun g = Run (length g) (head g)

{-# NOINLINE encode #-}
encode :: [Int] -> [Run]
encode = runs . group
  where
    runs :: [[Int]] -> [Run]
    runs = map toRun

{-# NOINLINE decode #-}
decode :: [Run] -> [Int]
decode = concatMap expand
  where
    expand :: Run -> [Int]
    expand (Run n x) = replicate n x

{-# NOINLINE sameList #-}
sameList :: [Int] -> [Int] -> Bool
sameList [] [] = True
sameList (x : xs) (y : ys) = x == y && sameList xs ys
sameList _ _ = False

{-# NOINLINE splitWords #-}
splitWords :: [Int] -> [[Int]]
splitWords xs = case dropWhile isSpace xs of
  [] -> []
  ys ->
    let (w, rest) = span notSpace ys
        more = splitWords rest
     in w : more
  where
    isSpace :: Int -> Bool
    isSpace c = c == 0
    notSpace :: Int -> Bool
    notSpace c = c /= 0

{-# NOINLINE shift #-}
shift :: Int -> Int -> Int
shift k c
  | c == 0 = 0
  | otherwise = (c - 1 + k) `mod` 26 + 1

{-# NOINLINE caesar #-}
caesar :: Int -> [Int] -> [Int]
caesar k = map sh
  where
    sh = shift k

{-# NOINLINE isPal #-}
isPal :: [Int] -> Bool
isPal w = and $ zipWith (==) w (reverse w)

{-# NOINLINE nub #-}
nub :: [Int] -> [Int]
nub [] = []
nub (x : xs) = x : rest
  where
    notX :: Int -> Bool
    notX y = y /= x
    rest = nub (filter notX xs)

{-# NOINLINE freqs #-}
freqs :: [Int] -> [Freq]
freqs xs = map count (nub xs)
  where
    count :: Int -> Freq
    count c = Freq c n
      where
        isC :: Int -> Bool
        isC y = y == c
        n = length (filter isC xs)

{-# NOINLINE lookup #-}
lookup :: Int -> [Freq] -> Int
lookup _ [] = 0
lookup c (Freq d n : more)
  | c == d = n
  | otherwise = lookup c more

{-# NOINLINE longest #-}
longest :: [[Int]] -> Int
longest = foldr pick 0
  where
    pick :: [Int] -> Int -> Int
    pick w best
      | len > best = len
      | otherwise = best
      where
        len = length w

{-# NOINLINE letter #-}
letter :: Int -> Int
letter r
  | m < 2 = 0
  | otherwise = m - 1
  where
    m = (r `div` 64) `mod` 6

{-# NOINLINE next #-}
next :: Int -> Int
next r = (r * 1103515245 + 12345) `mod` 2147483648

main :: IO ()
main = print $ Out firstRuns ok coded nWords nPals firstWords table looked longestW
  where
    text = map letter (take 600 (iterate next 5))
    runs = encode text
    firstRuns = take 8 runs
    ok = sameList (decode runs) text
    coded = take 20 (caesar 3 text)
    ws = splitWords text
    nWords = length ws
    nPals = length (filter isPal ws)
    firstWords = take 4 ws
    table = freqs text
    keysToFind = [0, 1, 2, 3, 4, 5, 9]
    looked = map find keysToFind
    find :: Int -> Int
    find c = lookup c table
    longestW = longest ws
