-- Twin of tests/ghc/matmul.stg (see README.md).
-- Matrix multiplication over lists of lists: columns taken with (!!) by a
-- helper under an SCC, rows multiplied by a local function holding a
-- local dot product under an SCC, a transposition under an SCC, an
-- identity matrix built by nested local functions, a matrix power by
-- recursion and traces.
mkRow :: Int -> Int -> [Int]
mkRow n i =
  let js = [1 .. n]
      cell :: Int -> Int
      cell j = (i * j + i) `rem` 5
   in map cell js

mkMat :: Int -> [[Int]]
mkMat n =
  let is = [1 .. n]
      row :: Int -> [Int]
      row = mkRow n
   in map row is

ident :: Int -> [[Int]]
ident n =
  let is = [1 .. n]
      irow :: Int -> [Int]
      irow i =
        let js = [1 .. n]
            e :: Int -> Int
            e j = if i == j then 1 else 0
         in map e js
   in map irow is

col :: Int -> [[Int]] -> [Int]
col j m =
  let nth :: [Int] -> Int
      nth r = r !! j
   in map nth m

cols :: [[Int]] -> [[Int]]
cols m = case m of
  [] -> []
  (r : _) ->
    let n = length r
        js = [0 .. n - 1]
        cj :: Int -> [Int]
        cj j = {-# SCC "getcol" #-} col j m
     in map cj js

dot :: [Int] -> [Int] -> Int
dot xs ys = sum (zipWith (*) xs ys)

mmul :: [[Int]] -> [[Int]] -> [[Int]]
mmul a b =
  let bt = {-# SCC "transpose" #-} cols b
      rowMul :: [Int] -> [Int]
      rowMul r =
        let dr :: [Int] -> Int
            dr c = {-# SCC "dotp" #-} dot r c
         in map dr bt
   in map rowMul a

mpow :: [[Int]] -> Int -> [[Int]]
mpow m k =
  if k == 0
    then ident (length m)
    else let m1 = mpow m (k - 1) in mmul m m1

trace :: [[Int]] -> Int
trace m =
  let n = length m
      is = [0 .. n - 1]
      dg :: Int -> Int
      dg i = (m !! i) !! i
   in sum (map dg is)

main :: IO ()
main =
  print
    ( let a = mkMat 3
          b = mmul a a
          c = mpow a 3
          t = trace c
          tb = trace b
          fb = concat b
       in fb ++ [t, tb]
    )
