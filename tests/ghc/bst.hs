-- Twin of tests/ghc/bst.stg (see README.md).
data Tree = Leaf | Node Tree Int Tree

next :: Int -> Int
next r = (r * 13 + 7) `rem` 97

insertT :: Int -> Tree -> Tree
insertT k t = case t of
  Leaf -> Node Leaf k Leaf
  Node l x r ->
    if k < x
      then let l2 = insertT k l in Node l2 x r
      else
        if k > x
          then let r2 = insertT k r in Node l x r2
          else t

fromListL :: [Int] -> Tree
fromListL xs =
  let step :: Tree -> Int -> Tree
      step t k = insertT k t
   in foldl step Leaf xs

fromListR :: [Int] -> Tree
fromListR xs = foldr insertT Leaf xs

toList :: Tree -> [Int]
toList t = case t of
  Leaf -> []
  Node l x r ->
    let ls = toList l
        rs = toList r
     in ls ++ (x : rs)

toListAcc :: Tree -> [Int] -> [Int]
toListAcc t acc = case t of
  Leaf -> acc
  Node l x r -> let rest = toListAcc r acc in toListAcc l (x : rest)

toListA :: Tree -> [Int]
toListA t = toListAcc t []

depth :: Tree -> Int
depth t = case t of
  Leaf -> 0
  Node l _ r ->
    let dl = depth l
        dr = depth r
     in 1 + max dl dr

foldT :: (Int -> Int -> Int -> Int) -> Int -> Tree -> Int
foldT f z t = case t of
  Leaf -> z
  Node l x r ->
    let a = foldT f z l
        b = foldT f z r
     in f a x b

sizeT :: Tree -> Int
sizeT t =
  let add3 :: Int -> Int -> Int -> Int
      add3 a _ b = a + 1 + b
   in foldT add3 0 t

sumT :: Tree -> Int
sumT t =
  let add3 :: Int -> Int -> Int -> Int
      add3 a x b = a + x + b
   in foldT add3 0 t

member :: Int -> Tree -> Bool
member k t = case t of
  Leaf -> False
  Node l x r -> if k < x then member k l else if k > x then member k r else True

main :: IO ()
main =
  print
    ( let ks = iterate next 40
       in let keys = take 15 ks
           in let t1 = fromListL keys
                  t2 = fromListR keys
               in let l1 = toList t1
                      l2 = toListA t2
                      d1 = depth t1
                      d2 = depth t2
                      sz = sizeT t1
                      sm = sumT t2
                      look :: Int -> Int
                      look k = if member k t1 then 1 else 0
                      probes = [30 .. 45]
                   in let found = map look probes
                       in let hits = zipWith (*) probes found
                              dl2 = drop 5 l2
                           in let mid = take 4 dl2
                               in let rest = hits ++ mid
                                   in l1 ++ (d1 : d2 : sz : sm : rest)
    )
