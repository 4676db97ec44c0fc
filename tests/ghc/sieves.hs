-- Twin of tests/ghc/sieves.stg (see README.md).
-- Three prime sieves: trial division by the primes so far (a CAF that
-- reads itself through isPrimeT, `all` over a local predicate); a 2-3 wheel
-- (a CAF, `all` over a partial application under an SCC); the "unfaithful"
-- sieve of Eratosthenes with an SCC around the partial application passed
-- to filter; and an SCC around a top-level predicate passed to filter.
odds :: Int -> [Int]
odds n = let n2 = n + 2; r = odds n2 in n : r

takeWhileU :: (Int -> Bool) -> [Int] -> [Int]
takeWhileU p xs = case xs of
  [] -> []
  (x : xt) -> if p x then let r = takeWhileU p xt in x : r else []

primesT :: [Int]
primesT = let cands = odds 3; ps = filter isPrimeT cands in 2 : ps

isPrimeT :: Int -> Bool
isPrimeT n =
  let small :: Int -> Bool
      small p = p * p <= n
      nd :: Int -> Bool
      nd p = n `rem` p /= 0
      ps = takeWhileU small primesT
   in all nd ps

notDiv :: Int -> Int -> Bool
notDiv n d = n `rem` d /= 0

wheel :: Int -> [Int]
wheel n = let n2 = n + 2; n6 = n + 6; r = wheel n6 in n : n2 : r

primesW :: [Int]
primesW = let cands = wheel 5; ps = filter isPrimeW cands in 2 : 3 : ps

isPrimeW :: Int -> Bool
isPrimeW n =
  let small :: Int -> Bool
      small p = p * p <= n
      nd :: Int -> Bool
      nd = notDiv n
      ps = takeWhileU small primesW
   in {-# SCC "trial" #-} all nd ps

notMult :: Int -> Int -> Bool
notMult p x = x `rem` p /= 0

sieve :: [Int] -> [Int]
sieve xs = case xs of
  [] -> []
  (p : rest) ->
    let pr :: Int -> Bool
        pr = {-# SCC "pred" #-} notMult p
        fs = filter pr rest
        s = sieve fs
     in p : s

isOddI :: Int -> Bool
isOddI x = x `rem` 2 == 1

lt60 :: Int -> Bool
lt60 x = x < 60

main :: IO ()
main =
  print
    ( let a = takeWhileU lt60 primesT
          b = take 15 primesW
          ns = [2 .. 60]
          c = sieve ns
          od :: Int -> Bool
          od = {-# SCC "oddp" #-} isOddI
          d = filter od c
          la = length a
          sb = sum b
          lc = length c
          sd = sum d
       in la : sb : lc : sd : a
    )
