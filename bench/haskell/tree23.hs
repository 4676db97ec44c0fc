-- Twin of bench/programs/tree23.stg (tests/ghc/lazy_tree.hs on 1..2^23-1).
data Tree = Leaf | Node Tree Int Tree

build :: Int -> Int -> Tree
build lo hi =
  if lo > hi
    then Leaf
    else
      let s = lo + hi
       in let mid = s `div` 2
           in let m1 = mid - 1
                  p1 = mid + 1
               in let l = build lo m1
                      r = build p1 hi
                   in Node l mid r

sumTree :: Tree -> Int
sumTree t = case t of
  Leaf -> 0
  Node l x r ->
    let sl = sumTree l
        sr = sumTree r
     in let s = sl + x in s + sr

depth :: Tree -> Int
depth t = case t of
  Leaf -> 0
  Node l _ r ->
    let dl = depth l
        dr = depth r
     in let m = max dl dr in m + 1

main :: IO ()
main =
  print
    ( let t = build 1 8388607
       in let s = sumTree t
              d = depth t
           in [s, d]
    )
