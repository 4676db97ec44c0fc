-- Twin of programs/mergesort.stg (see README.md).
next :: Int -> Int
next r = (r * 1103 + 12345) `rem` 4096

randoms :: [Int]
randoms = take 40 (iterate next 42)

msort :: [Int] -> [Int]
msort xs = case xs of
  [] -> []
  [x] -> [x]
  _ -> merge (msort (take h xs)) (msort (drop h xs))
  where
    h = length xs `quot` 2

merge :: [Int] -> [Int] -> [Int]
merge [] ys = ys
merge xs [] = xs
merge xs@(x : xt) ys@(y : yt) = if x <= y then x : merge xt ys else y : merge xs yt

main :: IO ()
main = print (msort randoms)
