-- Twin of tests/ghc/tictactoe.stg (see README.md): Hutton's tic-tac-toe
-- (Programming in Haskell, 2nd ed., ch. 11) on nearly full boards. Players
-- are Ints (O 0 < B 1 < X 2, the order of the book's derived Ord) kept in
-- top-level constants `o`, `b`, `x`, like `size` and `depth` (CAFs with
-- cost centres in GHC: the STG's are thunks whose body is a variable);
-- `next` and `turn` by guards, point-free `full = allFilled . concat`,
-- `wins` with where-bound `rows = g`, a user `transpose`, `diag` and a
-- lazy `others = cols ++ dias` (`any` stops at the first winning line),
-- `valid` with `&&`, `move` with the book's pattern binding
-- `(xs, _ : ys) = splitAt i (concat g)` (a user splitAt), `chop`,
-- `gametree`, `moves`, `prune`, `minimax` (two guards calling `turn` twice,
-- a user minimum and maximum) and `bestmove` with a pattern binding
-- `Node (_, best) ts = minimax tree`; the search under scc `search`.
-- Comprehensions are map/filter over where-bound functions; `next p` is
-- one where-bound thunk per node, and the lazy tuple and list fields are
-- named.
import Prelude hiding (maximum, minimum, splitAt)

type Player = Int

type Grid = [[Player]]

data Tree a = Node a [Tree a]

data Out = Out Grid Grid Grid Int Int Int [Bool] [Int] deriving (Show)

{-# NOINLINE o #-}
o :: Player
o = 0

{-# NOINLINE b #-}
b :: Player
b = 1

{-# NOINLINE x #-}
x :: Player
x = 2

{-# NOINLINE size #-}
size :: Int
size = 3

{-# NOINLINE depth #-}
depth :: Int
depth = 9

{-# NOINLINE next #-}
next :: Player -> Player
next p
  | p == o = x
  | p == x = o
  | otherwise = b

{-# NOINLINE full #-}
full :: Grid -> Bool
full = allFilled . concat
  where
    allFilled :: [Player] -> Bool
    allFilled = all filled
    filled :: Player -> Bool
    filled p = p /= b

{-# NOINLINE turn #-}
turn :: Grid -> Player
turn g = if os <= xs then o else x
  where
    os = length (filter isO ps)
    xs = length (filter isX ps)
    ps = concat g
    isO :: Player -> Bool
    isO p = p == o
    isX :: Player -> Bool
    isX p = p == x

{-# NOINLINE transpose #-}
transpose :: Grid -> Grid
transpose [] = []
transpose ([] : _) = []
transpose xss = map head xss : rest
  where
    rest = transpose (map tail xss)

{-# NOINLINE diag #-}
diag :: Grid -> [Player]
diag g = map at [0 .. size - 1]
  where
    at :: Int -> Player
    at n = g !! n !! n

{-# NOINLINE wins #-}
wins :: Player -> Grid -> Bool
wins p g = any line (rows ++ others)
  where
    line :: [Player] -> Bool
    line = all isP
    isP :: Player -> Bool
    isP q = q == p
    rows = g
    cols = transpose g
    others = cols ++ dias
    dias = [d1, d2]
    d1 = diag g
    d2 = diag (map reverse g)

{-# NOINLINE won #-}
won :: Grid -> Bool
won g = wins o g || wins x g

{-# NOINLINE valid #-}
valid :: Grid -> Int -> Bool
valid g i = 0 <= i && i < size * size && concat g !! i == b

{-# NOINLINE splitAt #-}
splitAt :: Int -> [Player] -> ([Player], [Player])
splitAt n ps = (take n ps, drop n ps)

{-# NOINLINE chop #-}
chop :: Int -> [Player] -> Grid
chop _ [] = []
chop n ps = take n ps : rest
  where
    rest = chop n (drop n ps)

{-# NOINLINE move #-}
move :: Grid -> Int -> Player -> [Grid]
move g i p = if valid g i then [g'] else []
  where
    (xs, _ : ys) = splitAt i (concat g)
    g' = chop size (xs ++ [p] ++ ys)

{-# NOINLINE moves #-}
moves :: Grid -> Player -> [Grid]
moves g p
  | won g = []
  | full g = []
  | otherwise = concat (map mv [0 .. size * size - 1])
  where
    mv :: Int -> [Grid]
    mv i = move g i p

{-# NOINLINE gametree #-}
gametree :: Grid -> Player -> Tree Grid
gametree g p = Node g ts
  where
    ts = map grow (moves g p)
    grow :: Grid -> Tree Grid
    grow g' = gametree g' np
    np = next p

{-# NOINLINE prune #-}
prune :: Int -> Tree Grid -> Tree Grid
prune 0 (Node g _) = Node g []
prune n (Node g ts) = Node g ts'
  where
    ts' = map pr ts
    pr :: Tree Grid -> Tree Grid
    pr t = prune (n - 1) t

{-# NOINLINE minimum #-}
minimum :: [Int] -> Int
minimum [v] = v
minimum (v : vs) = min v (minimum vs)

{-# NOINLINE maximum #-}
maximum :: [Int] -> Int
maximum [v] = v
maximum (v : vs) = max v (maximum vs)

{-# NOINLINE minimax #-}
minimax :: Tree Grid -> Tree (Grid, Player)
minimax (Node g [])
  | wins o g = Node (g, o) []
  | wins x g = Node (g, x) []
  | otherwise = Node (g, b) []
minimax (Node g ts)
  | turn g == o = Node (g, lo) ts'
  | turn g == x = Node (g, hi) ts'
  where
    ts' = map minimax ts
    ps = map label ts'
    label :: Tree (Grid, Player) -> Player
    label (Node (_, q) _) = q
    lo = minimum ps
    hi = maximum ps

{-# NOINLINE bestmove #-}
bestmove :: Grid -> Player -> Grid
bestmove g p = head (map grid (filter good ts))
  where
    tree = {-# SCC "search" #-} prune depth (gametree g p)
    Node (_, best) ts = minimax tree
    good :: Tree (Grid, Player) -> Bool
    good (Node (_, q) _) = q == best
    grid :: Tree (Grid, Player) -> Grid
    grid (Node (g', _) _) = g'

{-# NOINLINE nodes #-}
nodes :: Tree Grid -> Int
nodes (Node _ ts) = 1 + sum (map nodes ts)

main :: IO ()
main = print (Out best1 best2 best3 n1 n2 t1 ws ls)
  where
    board1 = [[o, b, b], [x, x, o], [x, o, b]]
    board2 = [[x, b, o], [b, o, b], [x, x, b]]
    board3 = [[o, x, b], [b, x, b], [o, b, b]]
    best1 = bestmove board1 o
    best2 = bestmove board2 o
    best3 = bestmove board3 o
    n1 = nodes (gametree board1 o)
    n2 = nodes (gametree board3 o)
    t1 = turn board3
    ws = [won best1, won best2, wins x best3, full best1]
    ls = map length (moves board3 o)
