-- Twin of tests/ghc/caesar.stg (see README.md).
next :: Int -> Int
next r = (r * 13 + 11) `rem` 89

toChar :: Int -> Int
toChar r = if r `rem` 6 == 0 then 0 else r `rem` 9 + 1

nonZero :: Int -> Bool
nonZero x = x /= 0

shift :: Int -> Int -> Int
shift n c = if c == 0 then 0 else (c - 1 + n) `mod` 26 + 1

encode :: Int -> [Int] -> [Int]
encode n xs =
  let sh :: Int -> Int
      sh = shift n
   in map sh xs

count :: Int -> [Int] -> Int
count c xs =
  let isC :: Int -> Bool
      isC y = y == c
   in let ys = filter isC xs in length ys

freqs :: [Int] -> [Int]
freqs xs =
  let nz = filter nonZero xs
   in let n = length nz
       in let pct :: Int -> Int
              pct c = let k = count c xs in (k * 100) `quot` n
              letters :: [Int]
              letters = [1 .. 26]
           in map pct letters

weight :: Int -> Int
weight c = (c * 7) `rem` 13 + 1

table :: [Int]
table = let ls = [1 .. 26] in map weight ls

rotate :: Int -> [Int] -> [Int]
rotate n xs =
  let a = drop n xs
      b = take n xs
   in a ++ b

chisqr :: [Int] -> [Int] -> Int
chisqr os es =
  let term :: Int -> Int -> Int
      term o e = ((o - e) * (o - e)) `quot` (e + 1)
   in let ts = zipWith term os es in sum ts

posOf :: Int -> [Int] -> Int
posOf x ys = case ys of
  (y : yt) -> if x == y then 0 else posOf x yt + 1

argmin :: [Int] -> Int
argmin xs = let m = foldl min 1000000 xs in posOf m xs

crack :: [Int] -> [Int]
crack xs =
  let fs = freqs xs
   in let chi :: Int -> Int
          chi n = let r = rotate n fs in chisqr r table
          shifts :: [Int]
          shifts = [0 .. 25]
       in let cs = map chi shifts
           in let best = argmin cs
               in let nb = negate best
                   in encode nb xs

main :: IO ()
main =
  print
    ( let rs = iterate next 5
       in let t40 = take 40 rs
           in let plain = map toChar t40
               in let cipher = encode 3 plain
                   in let cracked = crack cipher
                          fp = freqs plain
                       in let a = take 10 cipher
                              b = take 10 cracked
                              c = take 10 fp
                           in let bc = b ++ c in a ++ bc
    )
