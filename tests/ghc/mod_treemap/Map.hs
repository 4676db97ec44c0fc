-- Twin of tests/ghc/mod_treemap/Map.stg (see tests/ghc/README.md).
module Map (Map (..), insertWith, lookupM, foldM, sizeM, toListM) where

data Map = Leaf | Node Map Int Int Map

{-# NOINLINE insertWith #-}
insertWith :: (Int -> Int -> Int) -> Int -> Int -> Map -> Map
insertWith f k v m = case m of
  Leaf -> Node Leaf k v Leaf
  Node l k2 v2 r ->
    if k < k2
      then let l1 = insertWith f k v l in Node l1 k2 v2 r
      else
        if k > k2
          then let r1 = insertWith f k v r in Node l k2 v2 r1
          else let v1 = f v2 v in Node l k2 v1 r

{-# NOINLINE lookupM #-}
lookupM :: Int -> Map -> Int
lookupM k m = case m of
  Leaf -> 0
  Node l k2 v r -> if k < k2 then lookupM k l else if k > k2 then lookupM k r else v

{-# NOINLINE foldM #-}
foldM :: (Int -> Int -> Int -> Int) -> Int -> Map -> Int
foldM f z m = case m of
  Leaf -> z
  Node l k v r -> let zr = foldM f z r in let zv = f k v zr in foldM f zv l

{-# NOINLINE sizeM #-}
sizeM :: Map -> Int
sizeM m =
  let cnt :: Int -> Int -> Int -> Int
      cnt k v acc = acc + 1
   in foldM cnt 0 m

{-# NOINLINE toListM #-}
toListM :: Map -> [Int] -> [Int]
toListM m acc = case m of
  Leaf -> acc
  Node l k v r -> let rest = toListM r acc in toListM l (k : v : rest)
