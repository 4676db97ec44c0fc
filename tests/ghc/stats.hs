-- Twin of tests/ghc/stats.stg (see README.md).
import Data.List (foldl')

next :: Int -> Int
next r = (r * 23 + 11) `rem` 71

square :: Int -> Int
square x = x * x

sumSquares :: [Int] -> Int
sumSquares =
  let ms :: [Int] -> [Int]
      ms = map square
   in sum . ms

countIf :: (Int -> Bool) -> [Int] -> Int
countIf p =
  let fp :: [Int] -> [Int]
      fp = filter p
   in length . fp

mean :: [Int] -> Int
mean xs =
  let s = foldl' (+) 0 xs
      n = length xs
   in s `quot` n

variance :: [Int] -> Int
variance xs =
  let m = mean xs
   in let dev :: Int -> Int
          dev x = square (x - m)
       in let ds = map dev xs
           in sum ds `quot` length xs

bucket :: Int -> Int
bucket x
  | x < 20 = 0
  | x < 50 = 1
  | otherwise = 2

hist :: [Int] -> [Int]
hist xs = map cnt [0, 1, 2]
  where
    bs = map bucket xs
    cnt :: Int -> Int
    cnt k = countIf eqk bs
      where
        eqk :: Int -> Bool
        eqk b = b == k

sumStrict :: [Int] -> Int
sumStrict xs =
  let go :: Int -> [Int] -> Int
      go acc ys = case ys of
        [] -> acc
        (z : zs) ->
          let acc' = acc + z
           in let r = go acc' zs in acc' `seq` r
   in go 0 xs

addF :: [(Int, Int)] -> Int -> [(Int, Int)]
addF tbl k = case tbl of
  [] -> [(k, 1)]
  (e : rest) -> case e of
    (k2, n) ->
      if k2 == k
        then let n1 = n + 1 in (k2, n1) : rest
        else let r = addF rest k in e : r

unpair :: (Int, Int) -> [Int]
unpair p = case p of (a, b) -> [a, b]

lookupI :: Int -> [(Int, Int)] -> Int
lookupI k tbl = case tbl of
  [] -> 0
  (e : rest) -> case e of
    (k2, v) -> if k2 == k then v else lookupI k rest

main :: IO ()
main =
  print
    ( let rs = iterate next 42
          big :: Int -> Bool
          big x = x > 60
          small :: Int -> Int
          small x = x `rem` 7
       in let xs = take 25 rs
           in let ys = map small xs
               in let mu = mean xs
                      va = variance xs
                      hs = hist xs
                      ss = sumSquares xs
                      nb = countIf big xs
                      st = sumStrict xs
                      tbl = foldl addF [] ys
                   in let flat = concatMap unpair tbl
                          l3 = lookupI 2 tbl
                       in hs ++ (mu : va : ss : nb : st : l3 : flat)
    )
