-- Twin of tests/ghc/huffman.stg (see README.md): Huffman coding. Symbol
-- frequencies of a pseudo-random message (a CAF `symbols` read by two
-- functions), the tree built by repeated sorted insertion, a code table,
-- the message encoded with concatMap over a partial application, decoded
-- by a where-bound loop, and checked.
data Tree = Leaf Int Int | Node Int Tree Tree

data Code = Code Int [Int]

symbols :: [Int]
symbols = [0 .. 7]

next :: Int -> Int
next x = (x * 1103515245 + 12345) `rem` 2147483648

toSym :: Int -> Int
toSym x =
  let a = (x `quot` 7) `rem` 8
      b = (x `quot` 3) `rem` 11
   in if a < b then a else b

message :: Int -> [Int]
message n = let seeds = iterate next 42; xs = take n seeds in map toSym xs

weight :: Tree -> Int
weight t = case t of
  Leaf w _ -> w
  Node w _ _ -> w

freqs :: [Int] -> [Tree]
freqs msg = map mk symbols
  where
    mk :: Int -> Tree
    mk s = Leaf c s
      where
        isS :: Int -> Bool
        isS x = x == s
        c = length (filter isS msg)

insertT :: Tree -> [Tree] -> [Tree]
insertT t ts = case ts of
  [] -> [t]
  (u : us) ->
    if weight t <= weight u
      then t : ts
      else let rest = insertT t us in u : rest

sortT :: [Tree] -> [Tree]
sortT ts = foldr insertT [] ts

build :: [Tree] -> Tree
build ts = case ts of
  [t] -> t
  (a : b : rest) ->
    let w = {-# SCC "wsum" #-} (weight a + weight b)
        ts2 = insertT (Node w a b) rest
     in build ts2

codes :: Tree -> [Int] -> [Code]
codes t path = case t of
  Leaf _ s -> let p = reverse path in [Code s p]
  Node _ l r ->
    let cl = codes l (0 : path)
        cr = codes r (1 : path)
     in cl ++ cr

lookupCode :: [Code] -> Int -> [Int]
lookupCode tbl s = case tbl of
  (Code s1 p : more) -> if s1 == s then p else lookupCode more s

encode :: [Code] -> [Int] -> [Int]
encode tbl msg = let lk = lookupCode tbl in concatMap lk msg

decode :: Tree -> [Int] -> [Int]
decode t bits = go t bits
  where
    go :: Tree -> [Int] -> [Int]
    go n bs = case n of
      Leaf _ s -> let rest = go t bs in s : rest
      Node _ l r -> case bs of
        [] -> []
        (b : bs1) -> if b == 0 then go l bs1 else go r bs1

sameList :: [Int] -> [Int] -> Int
sameList xs ys = case xs of
  [] -> case ys of
    [] -> 1
    _ -> 0
  (x : xt) -> case ys of
    [] -> 0
    (y : yt) -> if x == y then sameList xt yt else 0

codeLen :: [Code] -> Int
codeLen tbl = case tbl of
  [] -> 0
  (Code _ p : more) -> length p + codeLen more

histogram :: [Int] -> [Int]
histogram msg = map cnt symbols
  where
    cnt :: Int -> Int
    cnt s = let eqs :: Int -> Bool
                eqs x = x == s
             in length (filter eqs msg)

main :: IO ()
main =
  print
    ( let msg = message 3000
          leaves = {-# SCC "count" #-} freqs msg
          sorted = sortT leaves
          tree = build sorted
          tbl = codes tree []
          bits = encode tbl msg
          back = decode tree bits
          ok = {-# SCC "check" #-} sameList back msg
          nbits = length bits
          wt = weight tree
          cl = codeLen tbl
          h = histogram msg
       in [nbits, ok, wt, cl] ++ h
    )
