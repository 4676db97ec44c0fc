data T = Leaf | Node T Int T

{-# NOINLINE tick #-}
tick :: Int -> Int -> (Int, Int)
tick s x = let s2 = s + x; out = s2 * 2 in (out, s2)

{-# NOINLINE runStrict #-}
runStrict :: Int -> [Int] -> [Int]
runStrict s xs = case xs of
  [] -> [s]
  (x : xt) -> case tick s x of
    (o, s2) -> let rest = runStrict s2 xt in o : rest

{-# NOINLINE runLazy #-}
runLazy :: Int -> [Int] -> [Int]
runLazy s xs = case xs of
  [] -> [s]
  (x : xt) ->
    let (o, s2) = tick s x
        rest = runLazy s2 xt
     in o : rest

-- a state monad by hand
{-# NOINLINE ret #-}
ret :: Int -> Int -> (Int, Int)
ret a s = (a, s)

{-# NOINLINE bind #-}
bind :: (Int -> (Int, Int)) -> (Int -> Int -> (Int, Int)) -> Int -> (Int, Int)
bind m k s = case m s of
  (a, s2) -> k a s2

{-# NOINLINE fresh #-}
fresh :: Int -> (Int, Int)
fresh s = let s1 = s + 1 in (s, s1)

{-# NOINLINE build #-}
build :: Int -> T
build n = if n == 0 then Leaf else let l = build (n - 1); r = build (n - 1) in Node l n r

-- number the nodes in order; returns the sum of labels times the keys
{-# NOINLINE label #-}
label :: T -> Int -> (Int, Int)
label t = case t of
  Leaf -> ret 0
  Node l x r ->
    let ml = label l
        k1 :: Int -> Int -> (Int, Int)
        k1 a = let k2 :: Int -> Int -> (Int, Int)
                   k2 i = let mr = label r
                              k3 :: Int -> Int -> (Int, Int)
                              k3 b = let v = a + i * x + b in ret v
                           in bind mr k3
                in bind fresh k2
     in bind ml k1

{-# NOINLINE evalSt #-}
evalSt :: (Int -> (Int, Int)) -> Int -> Int
evalSt m s = case m s of
  (a, _) -> a

main :: IO ()
main =
  print
    ( let xs = [3, 1, 4, 1, 5, 9, 2, 6]
       in let a = runStrict 0 xs
              b = runLazy 0 xs
              t = build 3
           in let lt = label t
               in let v = evalSt lt 1
                      c = b ++ [v]
                   in a ++ c
    )
