-- Twin of tests/ghc/tree_ops.stg (see README.md): a textbook binary
-- search tree. Insertion by guards with an as-pattern, built by a
-- point-free CAF `fromList = foldr insert Leaf`; membership; an in-order
-- flattening with a where-bound accumulator loop; height, size and a
-- point-free `sumTree = sum . toList`; a Maybe-like result for the minimum;
-- deletion by guards and a case on both subtrees; a tree map; a tree fold
-- with where-bound combiners; a balance check with && over recursive calls;
-- scc "build" around the construction of the tree.
data Tree = Leaf | Node Tree Int Tree deriving (Show)

data Opt = None | Some Int deriving (Show)

data Out = Out [Int] [Bool] Int Int Int Opt Opt [Int] Int Int Bool Bool deriving (Show)

{-# NOINLINE insert #-}
insert :: Int -> Tree -> Tree
insert x Leaf = Node Leaf x Leaf
insert x t@(Node l v r)
  | x < v = let l' = insert x l in Node l' v r
  | x > v = let r' = insert x r in Node l v r'
  | otherwise = t

{-# NOINLINE fromList #-}
fromList :: [Int] -> Tree
fromList = foldr insert Leaf

{-# NOINLINE member #-}
member :: Int -> Tree -> Bool
member _ Leaf = False
member x (Node l v r)
  | x == v = True
  | x < v = member x l
  | otherwise = member x r

{-# NOINLINE toList #-}
toList :: Tree -> [Int]
toList t = go t []
  where
    go :: Tree -> [Int] -> [Int]
    go Leaf acc = acc
    go (Node l v r) acc = go l (v : rest)
      where
        rest = go r acc

{-# NOINLINE height #-}
height :: Tree -> Int
height Leaf = 0
height (Node l _ r) = 1 + max (height l) (height r)

{-# NOINLINE size #-}
size :: Tree -> Int
size Leaf = 0
size (Node l _ r) = size l + 1 + size r

{-# NOINLINE sumTree #-}
sumTree :: Tree -> Int
sumTree = sum . toList

{-# NOINLINE findMin #-}
findMin :: Tree -> Opt
findMin Leaf = None
findMin (Node Leaf v _) = Some v
findMin (Node l _ _) = findMin l

{-# NOINLINE delete #-}
delete :: Int -> Tree -> Tree
delete _ Leaf = Leaf
delete x (Node l v r)
  | x < v = let dl = delete x l in Node dl v r
  | x > v = let dr = delete x r in Node l v dr
  | otherwise = case l of
      Leaf -> r
      _ -> case r of
        Leaf -> l
        _ -> case findMin r of
          Some m -> let r2 = delete m r in Node l m r2
          None -> l

{-# NOINLINE mapTree #-}
mapTree :: (Int -> Int) -> Tree -> Tree
mapTree _ Leaf = Leaf
mapTree f (Node l v r) = Node ml fv mr
  where
    ml = mapTree f l
    fv = f v
    mr = mapTree f r

{-# NOINLINE foldTree #-}
foldTree :: (Int -> Int -> Int -> Int) -> Int -> Tree -> Int
foldTree _ z Leaf = z
foldTree f z (Node l v r) = f (foldTree f z l) v (foldTree f z r)

{-# NOINLINE stats #-}
stats :: Tree -> [Int]
stats t = [countT, maxT, leaves]
  where
    countT = foldTree plus3 0 t
    maxT = foldTree biggest 0 t
    leaves = foldTree leafy 1 t
    plus3 :: Int -> Int -> Int -> Int
    plus3 a _ c = a + 1 + c
    biggest :: Int -> Int -> Int -> Int
    biggest a b c = max a (max b c)
    leafy :: Int -> Int -> Int -> Int
    leafy a _ c = a + c

{-# NOINLINE balanced #-}
balanced :: Tree -> Bool
balanced Leaf = True
balanced (Node l _ r) = abs (height l - height r) <= 1 && balanced l && balanced r

main :: IO ()
main = print $ Out firstKeys found h n s lo lo2 stT sz2 sumDoubled bal bal2
  where
    next :: Int -> Int
    next x = (x * 75 + 74) `mod` 65537
    keys = map reduce (take 300 (iterate next 1))
    reduce :: Int -> Int
    reduce k = k `mod` 1000
    t = {-# SCC "build" #-} fromList keys
    firstKeys = take 15 (toList t)
    found = map isIn [0, 21, 74, 150, 999]
    isIn :: Int -> Bool
    isIn k = member k t
    h = height t
    n = size t
    s = sumTree t
    lo = findMin t
    t2 = foldr delete t (take 100 keys)
    lo2 = findMin t2
    stT = stats t2
    sz2 = size t2
    sumDoubled = sumTree (mapTree double t2)
    double :: Int -> Int
    double k = k * 2
    bal = balanced t
    bal2 = balanced (fromList [1, 2, 3])
