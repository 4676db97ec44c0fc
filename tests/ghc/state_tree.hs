-- Twin of tests/ghc/state_tree.stg (see README.md): a State monad as a
-- data wrapper around a function (St), bind/return as top-level functions,
-- CAFs getS and fresh whose values are St's; numbering a tree, a monadic
-- map with an scc'd partial application as its argument.
data Tree = Leaf Int | Node Tree Tree
data P a = P a Int
data St a = St (Int -> P a)

{-# NOINLINE runSt #-}
runSt :: St a -> Int -> P a
runSt m s = case m of St f -> f s

{-# NOINLINE retS #-}
retS :: a -> St a
retS x = let f s = P x s in St f

{-# NOINLINE bindS #-}
bindS :: St a -> (a -> St b) -> St b
bindS m k = let g s = case runSt m s of
                        P a s1 -> runSt (k a) s1
             in St g

{-# NOINLINE getS #-}
getS :: St Int
getS = let f s = P s s in St f

{-# NOINLINE putS #-}
putS :: Int -> St Int
putS n = let f s = P n n in St f

{-# NOINLINE fresh #-}
fresh :: St Int
fresh = let k n = let n1 = n + 1
                      mp = putS n1
                      kp u = retS n
                   in bindS mp kp
         in bindS getS k

{-# NOINLINE build #-}
build :: Int -> Int -> Tree
build d x = if d == 0 then Leaf x else
  let d1 = d - 1
      l = build d1 x
      x2 = x + d
      r = build d1 x2
   in Node l r

{-# NOINLINE number #-}
number :: Tree -> St Tree
number t = case t of
  Leaf x -> let k n = let v = x * 10 + n in retS (Leaf v)
             in bindS fresh k
  Node l r ->
    let ml = number l
        k1 l2 = let mr = number r
                    k2 r2 = retS (Node l2 r2)
                 in bindS mr k2
     in bindS ml k1

{-# NOINLINE flatten #-}
flatten :: Tree -> [Int] -> [Int]
flatten t acc = case t of
  Leaf x -> x : acc
  Node l r -> let racc = flatten r acc in flatten l racc

{-# NOINLINE mapS #-}
mapS :: (Int -> St Int) -> [Int] -> St [Int]
mapS f xs = case xs of
  [] -> retS []
  (y : ys) ->
    let my = f y
        k b = let mrest = mapS f ys
                  k2 bs = retS (b : bs)
               in bindS mrest k2
     in bindS my k

{-# NOINLINE scaleBy #-}
scaleBy :: Int -> Int -> St Int
scaleBy c x = let m n = let v = x * c + n in retS v
               in bindS fresh m

{-# NOINLINE evalS #-}
evalS :: St a -> Int -> a
evalS m s = case runSt m s of P a s1 -> a

{-# NOINLINE execS #-}
execS :: St a -> Int -> Int
execS m s = case runSt m s of P a s1 -> s1

main :: IO ()
main =
  print
    ( let t = build 6 1
       in let mt = number t
           in let t2 = evalS mt 100
                  n = execS mt 100
                  sb = {-# SCC "lab" #-} scaleBy 3
                  xs = [1 .. 20]
               in let fl = flatten t2 []
                      ys = evalS (mapS sb xs) 0
                   in let a = length fl
                          b = take 5 fl
                       in let c = b ++ ys
                           in a : n : c
    )
