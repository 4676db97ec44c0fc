-- Twin of tests/ghc/number_theory.stg (see README.md).
notDiv :: Int -> Int -> Bool
notDiv n d = n `rem` d /= 0

divides :: Int -> Int -> Bool
divides n d = n `rem` d == 0

square :: Int -> Int
square x = x * x

inc :: Int -> Int
inc x = x + 1

gcdI :: Int -> Int -> Int
gcdI a b = if b == 0 then a else let r = a `rem` b in gcdI b r

lcmI :: Int -> Int -> Int
lcmI a b = let g = gcdI a b in (a `quot` g) * b

takeWhileI :: (Int -> Bool) -> [Int] -> [Int]
takeWhileI p xs = case xs of
  [] -> []
  (x : xt) -> if p x then let r = takeWhileI p xt in x : r else []

isPrime :: Int -> Bool
isPrime n =
  let nd :: Int -> Bool
      nd = notDiv n
      small :: Int -> Bool
      small d = d * d <= n
      from2 :: [Int]
      from2 = [2 ..]
   in let ds = takeWhileI small from2
       in if n > 1 then all nd ds else False

collatzLen :: Int -> Int
collatzLen n =
  let step :: Int -> Int
      step m = if m `rem` 2 == 0 then m `quot` 2 else 3 * m + 1
      notOne :: Int -> Bool
      notOne m = m /= 1
   in let chain = iterate step n
       in let pre = takeWhileI notOne chain
           in length pre + 1

properSum :: Int -> Int
properSum n =
  let dv :: Int -> Bool
      dv = divides n
      n1 = n - 1
   in let cands = [1 .. n1]
       in let ds = filter dv cands
           in sum ds

isPerfect :: Int -> Bool
isPerfect n = properSum n == n

main :: IO ()
main =
  print
    ( let ns :: [Int]
          ns = [1 .. 60]
          n300 :: [Int]
          n300 = [1 .. 300]
          g36 :: Int -> Int
          g36 = gcdI 36
          lcmF :: Int -> Int -> Int
          lcmF = flip lcmI
          sqInc :: Int -> Int
          sqInc = inc . square
          mx :: Int -> Int -> Int
          mx a b = if b > a then b else a
          pack :: Int -> Int -> Int
          pack l i = l * 1000 + i
          big :: Int -> Bool
          big l = l > 100
       in let ps = filter isPrime ns
              cl = map collatzLen ns
              perf = filter isPerfect n300
              n12 = take 12 ns
              n10 = take 10 ns
           in let gs = map g36 n12
                  lcmAll = foldl lcmF 1 n10
                  tagged = zipWith pack cl ns
                  p5 = ps !! 5
                  sqs = map sqInc ps
                  anyBig = if any big cl then 1 else 0
               in let best = foldl mx 0 tagged
                      sumsq = sum sqs
                      tl = perf ++ gs
                   in ps ++ (p5 : sumsq : lcmAll : best : anyBig : tl)
    )
