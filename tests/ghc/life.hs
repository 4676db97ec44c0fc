-- Twin of tests/ghc/life.stg (see README.md): Conway's game of life on a
-- list-of-lists grid, cells read with (!!), neighbours summed over a CAF
-- list of offsets by a where-bound loop, each generation a lazy grid read
-- by the next; CAFs `size` and `idxs` shared by several functions; helpers
-- nested three deep (step.row.cellAt.n); an SCC on a let right-hand side.
data P = P Int Int

size :: Int
size = 6 + 6

idxs :: [Int]
idxs = [0 .. size - 1]

offsets :: [P]
offsets = [P (-1) (-1), P (-1) 0, P (-1) 1, P 0 (-1), P 0 1, P 1 (-1), P 1 0, P 1 1]

cell :: [[Int]] -> Int -> Int -> Int
cell g r c =
  if r < 0
    then 0
    else
      if r >= size
        then 0
        else if c < 0 then 0 else if c >= size then 0 else (g !! r) !! c

neighbours :: [[Int]] -> Int -> Int -> Int
neighbours g r c = go offsets 0
  where
    go :: [P] -> Int -> Int
    go ps acc = case ps of
      [] -> acc
      (P dr dc : more) ->
        let r1 = r + dr
            c1 = c + dc
            v = cell g r1 c1
            acc1 = acc + v
         in go more acc1

rule :: Int -> Int -> Int
rule alive n = if n == 3 then 1 else if n == 2 then alive else 0

step :: [[Int]] -> [[Int]]
step g = map row idxs
  where
    row :: Int -> [Int]
    row r = map cellAt idxs
      where
        cellAt :: Int -> Int
        cellAt c = let n = neighbours g r c; a = cell g r c in rule a n

member :: [P] -> Int -> Int -> Bool
member ps r c = case ps of
  [] -> False
  (P pr pc : more) -> if pr == r then (if pc == c then True else member more r c) else member more r c

mkGrid :: [P] -> [[Int]]
mkGrid live = map mkRow idxs
  where
    mkRow :: Int -> [Int]
    mkRow r = map mkCell idxs
      where
        mkCell :: Int -> Int
        mkCell c = if member live r c then 1 else 0

population :: [[Int]] -> Int
population g = case g of
  [] -> 0
  (r : rs) -> let pr = sum r; prs = population rs in pr + prs

signature :: [[Int]] -> [Int]
signature g = map bin g
  where
    bin :: [Int] -> Int
    bin r = foldl twice 0 r
      where
        twice :: Int -> Int -> Int
        twice acc x = acc * 2 + x

run :: Int -> [[Int]] -> [Int]
run n g =
  if n == 0
    then []
    else
      let p = population g
          g1 = {-# SCC "gen" #-} step g
          n1 = n - 1
          ps = run n1 g1
       in p : ps

lastGen :: Int -> [[Int]] -> [[Int]]
lastGen n g = if n == 0 then g else let g1 = step g; n1 = n - 1 in lastGen n1 g1

main :: IO ()
main =
  print
    ( let live = [P 0 1, P 1 2, P 2 0, P 2 1, P 2 2, P 6 5, P 6 6, P 6 7, P 9 9, P 9 10, P 10 9, P 10 10]
          g0 = mkGrid live
          pops = run 10 g0
          gl = {-# SCC "final" #-} lastGen 6 g0
          sg = signature gl
       in pops ++ sg
    )
