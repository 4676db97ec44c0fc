-- Twin of tests/ghc/rbtree.stg (see README.md): Okasaki's red-black tree:
-- insert with a where-bound `ins` and balancing by nested case (balL,
-- balR), built from a CAF key list with foldl, then folded (a generic
-- in-order fold given a top-level function and a local closure), depth,
-- black height, membership tests and a sortedness check.
data Color = R | B

data RB = E | T Color RB Int RB

next :: Int -> Int
next x = (x * 1103515245 + 12345) `rem` 2147483648

toKey :: Int -> Int
toKey x = (x `quot` 16) `rem` 5000

keys :: [Int]
keys = let seeds = iterate next 7; ss = take 2000 seeds in map toKey ss

balance :: Color -> RB -> Int -> RB -> RB
balance c l x r = case c of
  R -> T R l x r
  B -> balL l x r

balL :: RB -> Int -> RB -> RB
balL l x r = case l of
  T lc ll y lr -> case lc of
    R -> case ll of
      T llc a xa b -> case llc of
        R -> T R (T B a xa b) y (T B lr x r)
        B -> case lr of
          T lrc b2 xb c2 -> case lrc of
            R -> T R (T B ll y b2) xb (T B c2 x r)
            B -> balR l x r
          E -> balR l x r
      E -> case lr of
        T lrc b2 xb c2 -> case lrc of
          R -> T R (T B ll y b2) xb (T B c2 x r)
          B -> balR l x r
        E -> balR l x r
    B -> balR l x r
  E -> balR l x r

balR :: RB -> Int -> RB -> RB
balR l x r = case r of
  T rc rl y rr -> case rc of
    R -> case rl of
      T rlc b yb c2 -> case rlc of
        R -> T R (T B l x b) yb (T B c2 y rr)
        B -> case rr of
          T rrc c3 z d -> case rrc of
            R -> T R (T B l x rl) y (T B c3 z d)
            B -> T B l x r
          E -> T B l x r
      E -> case rr of
        T rrc c3 z d -> case rrc of
          R -> T R (T B l x rl) y (T B c3 z d)
          B -> T B l x r
        E -> T B l x r
    B -> T B l x r
  E -> T B l x r

insert :: Int -> RB -> RB
insert x t = let t1 = ins t in blacken t1
  where
    ins :: RB -> RB
    ins s = case s of
      E -> T R E x E
      T c l y r ->
        if x < y
          then let l1 = ins l in balance c l1 y r
          else if x > y then let r1 = ins r in balance c l y r1 else s

blacken :: RB -> RB
blacken t = case t of
  T _ l y r -> T B l y r
  E -> E

insertF :: RB -> Int -> RB
insertF t x = insert x t

foldT :: (Int -> Int -> Int) -> Int -> RB -> Int
foldT f z t = case t of
  E -> z
  T _ l x r -> let zr = foldT f z r; v = f x zr in foldT f v l

toList :: RB -> [Int] -> [Int]
toList t acc = case t of
  E -> acc
  T _ l x r -> let rest = toList r acc in toList l (x : rest)

depth :: RB -> Int
depth t = case t of
  E -> 0
  T _ l _ r -> let dl = depth l; dr = depth r in if dl > dr then dl + 1 else dr + 1

blackHeight :: RB -> Int
blackHeight t = case t of
  E -> 1
  T c l _ _ -> let h = blackHeight l in case c of
    B -> h + 1
    R -> h

memberT :: Int -> RB -> Bool
memberT x t = case t of
  E -> False
  T _ l y r -> if x < y then memberT x l else if x > y then memberT x r else True

sorted :: [Int] -> Int
sorted xs = case xs of
  [] -> 1
  (x : rest) -> case rest of
    [] -> 1
    (y : _) -> if x < y then sorted rest else 0

plus :: Int -> Int -> Int
plus a b = a + b

build :: Int -> RB
build n = let ks = take n keys in foldl insertF E ks

countHits :: RB -> Int
countHits t = let probes = take 1500 keys; hits = filter isIn probes in length hits
  where
    isIn :: Int -> Bool
    isIn k = let k2 = k + 1 in memberT k2 t

main :: IO ()
main =
  print
    ( let t = {-# SCC "mkTree" #-} build 2000
          small = build 50
          s = foldT plus 0 t
          big = 2400 + 100
          cnt = let above :: Int -> Int -> Int
                    above x acc = if x > big then acc + 1 else acc
                 in foldT above 0 t
          l = toList t []
          n = length l
          d = depth t
          bh = blackHeight t
          ok = sorted l
          hits = countHits t
          ds = depth small
       in [n, s, cnt, d, bh, ok, hits, ds]
    )
