-- Twin of tests/ghc/list_classics.stg (see README.md).
next :: Int -> Int
next r = (r * 29 + 5) `rem` 50

hanoi :: Int -> Int -> Int -> Int -> [Int]
hanoi n a b c =
  if n == 0
    then []
    else
      let n1 = n - 1
       in let l = hanoi n1 a c b
              r = hanoi n1 c b a
              mv = a * 10 + b
           in l ++ (mv : r)

nextRow :: [Int] -> [Int]
nextRow r = let rz = r ++ [0] in zipWith (+) (0 : r) rz

pascalRows :: Int -> [[Int]]
pascalRows n = let rs = iterate nextRow [1] in take n rs

chunk :: Int -> [Int] -> [[Int]]
chunk n xs = case xs of
  [] -> []
  (_ : _) ->
    let h = take n xs
        t = drop n xs
     in let rest = chunk n t in h : rest

mkMat :: Int -> Int -> Int -> [[Int]]
mkMat rows cols seed =
  let n = rows * cols
      rs = iterate next seed
   in let cells = take n rs in chunk cols cells

transposeM :: [[Int]] -> [[Int]]
transposeM m = case m of
  [] -> []
  (r : _) -> case r of
    [] -> []
    (_ : _) ->
      let hs = map head m
          ts = map tail m
       in let rest = transposeM ts in hs : rest

dot :: [Int] -> [Int] -> Int
dot xs ys = let ps = zipWith (*) xs ys in sum ps

mmul :: [[Int]] -> [[Int]] -> [[Int]]
mmul a b =
  let bt = transposeM b
   in let row :: [Int] -> [Int]
          row r =
            let dotr :: [Int] -> Int
                dotr c = dot r c
             in map dotr bt
       in map row a

split :: [Int] -> ([Int], [Int])
split xs = case xs of
  [] -> ([], [])
  (x : xt) -> let (a, b) = split xt in (x : b, a)

merge :: [Int] -> [Int] -> [Int]
merge xs ys = case xs of
  [] -> ys
  (x : xt) -> case ys of
    [] -> xs
    (y : yt) ->
      if x <= y
        then let restx = merge xt ys in x : restx
        else let resty = merge xs yt in y : resty

msort2 :: [Int] -> [Int]
msort2 xs = case xs of
  [] -> []
  (_ : xt) -> case xt of
    [] -> xs
    (_ : _) ->
      let (a, b) = split xs
       in let sa = msort2 a
              sb = msort2 b
           in merge sa sb

main :: IO ()
main =
  print
    ( let h = hanoi 4 1 2 3
          rows = pascalRows 7
          ma = mkMat 2 3 5
          mb = mkMat 3 2 9
          rs3 = iterate next 3
       in let pc = concat rows
              prod = mmul ma mb
              xs = take 20 rs3
           in let pf = concat prod
                  sorted = msort2 xs
                  hl = length h
                  h8 = take 8 h
               in let t2 = pf ++ sorted
                   in let rest = pc ++ t2
                       in h8 ++ (hl : rest)
    )
