-- Twin of tests/ghc/text_words.stg (see README.md).
next :: Int -> Int
next r = (r * 17 + 3) `rem` 101

toChar :: Int -> Int
toChar r = if r `rem` 5 == 0 then 0 else r `rem` 3 + 1

isZero :: Int -> Bool
isZero x = x == 0

nonZero :: Int -> Bool
nonZero x = x /= 0

takeWhileI :: (Int -> Bool) -> [Int] -> [Int]
takeWhileI p xs = case xs of
  [] -> []
  (x : xt) -> if p x then let r = takeWhileI p xt in x : r else []

dropWhileI :: (Int -> Bool) -> [Int] -> [Int]
dropWhileI p xs = case xs of
  [] -> []
  (x : xt) -> if p x then dropWhileI p xt else xs

splitW :: [Int] -> [[Int]]
splitW xs =
  let ys = dropWhileI isZero xs
   in case ys of
        [] -> []
        (_ : _) ->
          let w = takeWhileI nonZero ys
              rest = dropWhileI nonZero ys
           in let ws = splitW rest in w : ws

rle :: [Int] -> [Int]
rle xs = case xs of
  [] -> []
  (x : xt) ->
    let same :: Int -> Bool
        same y = y == x
     in let run = takeWhileI same xt
            rest = dropWhileI same xt
         in let n = length run + 1
                enc = rle rest
             in x : n : enc

pick :: [Int] -> [Int] -> [Int]
pick w best = if length w >= length best then w else best

main :: IO ()
main =
  print
    ( let rs = iterate next 5
       in let t60 = take 60 rs
           in let text = map toChar t60
               in let ws = splitW text
                      nb0 = filter nonZero text
                   in let lens = map length ws
                          nw = length ws
                          best = foldr pick [] ws
                          encs = concatMap rle ws
                          flat = concat ws
                          nonblank = length nb0
                       in let longest = foldl max 0 lens
                              total = sum lens
                              idx = [1 ..]
                              nflat = length flat
                           in let wl = zipWith (*) lens idx
                                  e20 = take 20 encs
                               in let weighted = sum wl
                                      tl = best ++ e20
                                   in lens ++ (longest : nw : total : nonblank : weighted : nflat : tl)
    )
