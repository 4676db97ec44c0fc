-- Twin of tests/ghc/fizz_collatz.stg (see README.md): textbook guards and
-- where clauses. FizzBuzz classified into a data type by guards over a
-- where-bound predicate, tallied by a point-free CAF (foldr over a
-- where-bound step); Collatz chains by a where-bound accumulator loop,
-- by iterate and a user takeWhile, a user maximum (guards and a where
-- thunk), a point-free composition, and zip with a where-bound search.
import Prelude hiding (maximum, takeWhile, zip)

data FB = Fizz | Buzz | FizzBuzz | Plain Int deriving (Show)

data Tally = Tally Int Int Int Int deriving (Show)

data Out = Out [FB] Tally [Int] [Int] Int Int deriving (Show)

{-# NOINLINE fizz #-}
fizz :: Int -> FB
fizz n
  | divides 15 = FizzBuzz
  | divides 3 = Fizz
  | divides 5 = Buzz
  | otherwise = Plain n
  where
    divides :: Int -> Bool
    divides d = n `mod` d == 0

{-# NOINLINE tally #-}
tally :: [FB] -> Tally
tally = foldr count (Tally 0 0 0 0)
  where
    count :: FB -> Tally -> Tally
    count fb (Tally f b fz p) = case fb of
      Fizz -> Tally (f + 1) b fz p
      Buzz -> Tally f (b + 1) fz p
      FizzBuzz -> Tally f b (fz + 1) p
      Plain _ -> Tally f b fz (p + 1)

{-# NOINLINE collatz #-}
collatz :: Int -> Int
collatz n
  | even n = n `div` 2
  | otherwise = 3 * n + 1

{-# NOINLINE chainLength #-}
chainLength :: Int -> Int
chainLength n = go n 1
  where
    go :: Int -> Int -> Int
    go m acc
      | m == 1 = acc
      | otherwise = go (collatz m) (acc + 1)

{-# NOINLINE takeWhile #-}
takeWhile :: (Int -> Bool) -> [Int] -> [Int]
takeWhile _ [] = []
takeWhile p (x : xs)
  | p x = x : rest
  | otherwise = []
  where
    rest = takeWhile p xs

{-# NOINLINE collatzSeq #-}
collatzSeq :: Int -> [Int]
collatzSeq n = takeWhile notOne (iterate collatz n) ++ [1]
  where
    notOne :: Int -> Bool
    notOne x = x /= 1

{-# NOINLINE maximum #-}
maximum :: [Int] -> Int
maximum [x] = x
maximum (x : xs)
  | x > m = x
  | otherwise = m
  where
    m = maximum xs

{-# NOINLINE longestChain #-}
longestChain :: [Int] -> Int
longestChain = maximum . lengths
  where
    lengths :: [Int] -> [Int]
    lengths = map chainLength

{-# NOINLINE zip #-}
zip :: [Int] -> [Int] -> [(Int, Int)]
zip (x : xs) (y : ys) = (x, y) : rest
  where
    rest = zip xs ys
zip _ _ = []

{-# NOINLINE argMax #-}
argMax :: [Int] -> Int
argMax ns = pick (zip ns lens)
  where
    lens = map chainLength ns
    best = maximum lens
    pick :: [(Int, Int)] -> Int
    pick ((n, l) : rest)
      | l == best = n
      | otherwise = pick rest

main :: IO ()
main = print $ Out fbs t s27 firsts lc am
  where
    fbs = map fizz [1 .. 20]
    t = tally (map fizz [1 .. 600])
    s27 = take 12 (collatzSeq 27)
    firsts = map chainLength [1 .. 12]
    lc = longestChain [1 .. 100]
    am = argMax [100 .. 160]
