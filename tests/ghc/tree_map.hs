data T = Leaf | Node T Int T

build :: Int -> T
build n = if n == 0 then Leaf else let l = build (n - 1); r = build (n - 1) in Node l n r

tmap :: (Int -> Int) -> T -> T
tmap f t = case t of
  Leaf -> Leaf
  Node l x r -> let a = tmap f l; b = f x; c = tmap f r in Node a b c

tsum :: T -> Int
tsum t = case t of
  Leaf -> 0
  Node l x r -> tsum l + x + tsum r

tfold :: (Int -> Int -> Int) -> Int -> T -> Int
tfold k z t = case t of
  Leaf -> z
  Node l x r -> let lz = tfold k z l in let kx = k x lz in tfold k kx r

maxT :: T -> Int
maxT t = let mx a b = max a b in tfold mx 0 t

{-# NOINLINE mkF #-}
mkF :: Int -> (Int -> Int)
mkF k = let g x = x * k in g

main :: IO ()
main =
  print
    ( let f = mkF 3
          t = build 2
          t2 = tmap f t
          s1 = tsum t2
          s2 = maxT t2
       in [s1, s2]
    )
