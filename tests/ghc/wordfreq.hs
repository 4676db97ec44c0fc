-- Twin of tests/ghc/wordfreq.stg (see README.md).
-- Word frequencies: a pseudo-random text of Ints (0 separates words),
-- split into words with a user takeWhile/dropWhile, each word hashed by
-- foldl with a local step, counted into an association list by insertion,
-- sorted by count with an insertion sort (a point-free CAF
-- sortFreq = foldr insBy []), the phases under hand-written SCCs.
next :: Int -> Int
next r = (r * 37 + 11) `rem` 101

toChar :: Int -> Int
toChar r = r `rem` 5

mkText :: Int -> Int -> [Int]
mkText n seed =
  let rs = iterate next seed
      cs = map toChar rs
   in take n cs

isSep :: Int -> Bool
isSep c = c == 0

isLetter :: Int -> Bool
isLetter c = c /= 0

takeWhileU :: (Int -> Bool) -> [Int] -> [Int]
takeWhileU p xs = case xs of
  [] -> []
  (x : xt) -> if p x then let r = takeWhileU p xt in x : r else []

dropWhileU :: (Int -> Bool) -> [Int] -> [Int]
dropWhileU p xs = case xs of
  [] -> []
  (x : xt) -> if p x then dropWhileU p xt else xs

splitWords :: [Int] -> [[Int]]
splitWords xs = case dropWhileU isSep xs of
  [] -> []
  ys ->
    let w = takeWhileU isLetter ys
        rest = dropWhileU isLetter ys
        ws = splitWords rest
     in w : ws

hash :: [Int] -> Int
hash w =
  let step :: Int -> Int -> Int
      step a c = a * 5 + c
   in foldl step 0 w

insertW :: Int -> [(Int, Int)] -> [(Int, Int)]
insertW k tbl = case tbl of
  [] -> [(k, 1)]
  (p : rest) -> case p of
    (k2, c) ->
      if k == k2
        then let c1 = c + 1 in (k2, c1) : rest
        else let r = insertW k rest in p : r

countAll :: [Int] -> [(Int, Int)]
countAll ks = foldr insertW [] ks

cnt :: (Int, Int) -> Int
cnt p = case p of (_, c) -> c

insBy :: (Int, Int) -> [(Int, Int)] -> [(Int, Int)]
insBy p xs = case xs of
  [] -> [p]
  (q : qs) -> if cnt p >= cnt q then p : xs else let r = insBy p qs in q : r

sortFreq :: [(Int, Int)] -> [(Int, Int)]
sortFreq = foldr insBy []

pairL :: (Int, Int) -> [Int]
pairL p = case p of (k, c) -> [k, c]

main :: IO ()
main =
  print
    ( let txt = mkText 80 7
          ws = {-# SCC "split" #-} splitWords txt
          ks = map hash ws
          tbl = {-# SCC "count" #-} countAll ks
          sorted = {-# SCC "sort" #-} sortFreq tbl
          top4 = take 4 sorted
          nw = length ws
          nd = length tbl
          cm = concatMap pairL top4
       in nw : nd : cm
    )
