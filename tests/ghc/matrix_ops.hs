-- Twin of tests/ghc/matrix_ops.stg (see README.md): textbook matrices as
-- lists of lists. A user transpose with where-bound heads and rest, a dot
-- product by zipWith (*), matrix product with where-bound columns and a
-- where-bound partial application `dr = dot row`, the identity and a grid
-- from where-bound ranges and nested where-bound functions, powers by
-- guards (a where thunk `half`), Fibonacci numbers by powers read with
-- `!!`, the trace by `zipWith (!!)`, point-free scaling and addition
-- (`scale k = map scaleRow`, `madd = zipWith addRow`), and a Laplace
-- determinant with a where-bound term and a user minor.
type Matrix = [[Int]]

data Out = Out Matrix Matrix Int [Int] Int Int Matrix Matrix Matrix Int deriving (Show)

{-# NOINLINE transpose #-}
transpose :: Matrix -> Matrix
transpose [] = []
transpose ([] : _) = []
transpose xss = heads : rest
  where
    heads = map head xss
    rest = transpose (map tail xss)

{-# NOINLINE dot #-}
dot :: [Int] -> [Int] -> Int
dot xs ys = sum (zipWith (*) xs ys)

{-# NOINLINE mmul #-}
mmul :: Matrix -> Matrix -> Matrix
mmul a b = map rowTimes a
  where
    cols = transpose b
    rowTimes :: [Int] -> [Int]
    rowTimes row = map dr cols
      where
        dr = dot row

{-# NOINLINE identity #-}
identity :: Int -> Matrix
identity n = map row range
  where
    range = [0 .. n - 1]
    row :: Int -> [Int]
    row i = map cell range
      where
        cell :: Int -> Int
        cell j
          | i == j = 1
          | otherwise = 0

{-# NOINLINE grid #-}
grid :: Int -> Matrix
grid n = map mkRow range
  where
    range = [1 .. n]
    mkRow :: Int -> [Int]
    mkRow i = map cellv range
      where
        cellv :: Int -> Int
        cellv j = (i * j + i + j * j) `mod` 7

{-# NOINLINE mpow #-}
mpow :: Matrix -> Int -> Matrix
mpow m k
  | k == 0 = identity (length m)
  | even k = mmul half half
  | otherwise = mmul m (mpow m (k - 1))
  where
    half = mpow m (k `div` 2)

{-# NOINLINE trace #-}
trace :: Matrix -> Int
trace m = sum (zipWith (!!) m [0 ..])

{-# NOINLINE scale #-}
scale :: Int -> Matrix -> Matrix
scale k = map scaleRow
  where
    scaleRow :: [Int] -> [Int]
    scaleRow = map times
    times :: Int -> Int
    times x = x * k

{-# NOINLINE madd #-}
madd :: Matrix -> Matrix -> Matrix
madd = zipWith addRow
  where
    addRow :: [Int] -> [Int] -> [Int]
    addRow = zipWith (+)

{-# NOINLINE sign #-}
sign :: Int -> Int
sign j
  | even j = 1
  | otherwise = -1

{-# NOINLINE minor #-}
minor :: Int -> Matrix -> Matrix
minor j m = map dropCol (tail m)
  where
    dropCol :: [Int] -> [Int]
    dropCol row = take j row ++ drop (j + 1) row

{-# NOINLINE det #-}
det :: Matrix -> Int
det [[a]] = a
det m = sum (zipWith term [0 ..] (head m))
  where
    term :: Int -> Int -> Int
    term j a = sign j * a * det (minor j m)

main :: IO ()
main = print $ Out p i3 t fibs d dg s sumM sq tq
  where
    a = [[1, 2, 3], [4, 5, 6], [7, 8, 10]]
    b = transpose a
    p = mmul a b
    i3 = identity 3
    t = trace p
    fibMat = [[1, 1], [1, 0]]
    fibAt :: Int -> Int
    fibAt n = head (mpow fibMat n) !! 1
    fibs = map fibAt [1 .. 15]
    d = det (mmul a a)
    g = grid 6
    dg = det g
    s = scale 3 a
    sumM = madd a b
    sq = mpow a 5
    tq = trace (mpow g 3)
