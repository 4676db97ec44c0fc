-- Twin of tests/ghc/primes_perfect.stg (see README.md): textbook number
-- theory. A CAF of primes by the "unfaithful sieve" (filter with a
-- where-bound predicate, under scc "sieve"), primality by all over a user takeWhile of that
-- CAF, perfect numbers by divisors and sum, Armstrong numbers by digits
-- (an accumulator loop) and a user power, Euler's totient with a user gcd
-- by guards, Goldbach pairs by dropWhile, factorials by a user product,
-- membership by a user elem.
import Prelude hiding (dropWhile, elem, product, takeWhile)

data Pair = Pair Int Int deriving (Show)

data Out = Out [Int] [Int] [Int] [Int] [Pair] [Int] Int Int deriving (Show)

{-# NOINLINE primes #-}
primes :: [Int]
primes = {-# SCC "sieve" #-} sieve [2 ..]
  where
    sieve :: [Int] -> [Int]
    sieve (p : xs) = p : rest
      where
        notMult :: Int -> Bool
        notMult x = x `mod` p /= 0
        rest = sieve (filter notMult xs)

{-# NOINLINE takeWhile #-}
takeWhile :: (Int -> Bool) -> [Int] -> [Int]
takeWhile _ [] = []
takeWhile p (x : xs)
  | p x = x : rest
  | otherwise = []
  where
    rest = takeWhile p xs

{-# NOINLINE dropWhile #-}
dropWhile :: (Int -> Bool) -> [Int] -> [Int]
dropWhile _ [] = []
dropWhile p (x : xs)
  | p x = dropWhile p xs
  | otherwise = x : xs

{-# NOINLINE isPrime #-}
isPrime :: Int -> Bool
isPrime n
  | n < 2 = False
  | otherwise = all notDivides candidates
  where
    small :: Int -> Bool
    small p = p * p <= n
    candidates = takeWhile small primes
    notDivides :: Int -> Bool
    notDivides p = n `mod` p /= 0

{-# NOINLINE divisors #-}
divisors :: Int -> [Int]
divisors n = filter divides [1 .. half]
  where
    half = n `div` 2
    divides :: Int -> Bool
    divides d = n `mod` d == 0

{-# NOINLINE isPerfect #-}
isPerfect :: Int -> Bool
isPerfect n = sum (divisors n) == n

{-# NOINLINE digits #-}
digits :: Int -> [Int]
digits n = go n []
  where
    go :: Int -> [Int] -> [Int]
    go m acc
      | m < 10 = m : acc
      | otherwise = go (m `div` 10) (m `mod` 10 : acc)

{-# NOINLINE power #-}
power :: Int -> Int -> Int
power b e
  | e == 0 = 1
  | even e = half * half
  | otherwise = b * power b (e - 1)
  where
    half = power b (e `div` 2)

{-# NOINLINE isArmstrong #-}
isArmstrong :: Int -> Bool
isArmstrong n = sum (map pw ds) == n
  where
    ds = digits n
    k = length ds
    pw :: Int -> Int
    pw d = power d k

{-# NOINLINE myGcd #-}
myGcd :: Int -> Int -> Int
myGcd a b
  | b == 0 = a
  | otherwise = myGcd b (a `mod` b)

{-# NOINLINE coprime #-}
coprime :: Int -> Int -> Bool
coprime a b = myGcd a b == 1

{-# NOINLINE totient #-}
totient :: Int -> Int
totient n = length (filter cp [1 .. n])
  where
    cp = coprime n

{-# NOINLINE goldbach #-}
goldbach :: Int -> Pair
goldbach n = Pair p (n - p)
  where
    noPartner :: Int -> Bool
    noPartner q = not (isPrime (n - q))
    p = head (dropWhile noPartner primes)

{-# NOINLINE product #-}
product :: [Int] -> Int
product = foldr times 1
  where
    times :: Int -> Int -> Int
    times x y = x * y

{-# NOINLINE factorial #-}
factorial :: Int -> Int
factorial n = product [1 .. n]

{-# NOINLINE elem #-}
elem :: Int -> [Int] -> Bool
elem _ [] = False
elem x (y : ys)
  | x == y = True
  | otherwise = elem x ys

main :: IO ()
main = print $ Out ps perfect arm tots gb facts inList notInList
  where
    ps = filter isPrime [1 .. 60]
    perfect = filter isPerfect [2 .. 100] ++ filter isPerfect [490 .. 500]
    arm = filter isArmstrong [100 .. 420]
    tots = map totient [1 .. 24]
    gb = map goldbach [4, 28, 96, 100]
    facts = map factorial [1 .. 10]
    inList = if 97 `elem` primes then 1 else 0
    notInList = length (filter isPrime [9000 .. 9100])
