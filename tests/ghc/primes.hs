-- Twin of programs/primes.stg (see README.md).
main :: IO ()
main = print (take 50 primes)

notDivides :: Int -> Int -> Bool
notDivides p x = x `rem` p /= 0

sieve :: [Int] -> [Int]
sieve (p : ps) = p : sieve (filter (\x -> notDivides p x) ps)

nats :: [Int]
nats = [2 ..]

primes :: [Int]
primes = sieve nats
