-- Twin of bench/programs/primes2000.stg (from tests/ghc/, with the benchmark's parameters).
-- Twin of programs/primes.stg (see README.md).
main :: IO ()
main = print (primes !! 1999)

notDivides :: Int -> Int -> Bool
notDivides p x = x `rem` p /= 0

sieve :: [Int] -> [Int]
sieve xs = case xs of
  (p : ps) ->
    let nd x = notDivides p x
     in let rest = filter nd ps
         in let srest = sieve rest
             in p : srest

nats :: [Int]
nats = enumFrom 2

primes :: [Int]
primes = sieve nats
