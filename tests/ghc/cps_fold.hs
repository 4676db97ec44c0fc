data T = Leaf | Node T Int T

{-# NOINLINE idI #-}
idI :: Int -> Int
idI x = x

{-# NOINLINE sumCPS #-}
sumCPS :: [Int] -> Int
sumCPS xs =
  let step :: Int -> (Int -> Int) -> Int -> Int
      step x k acc = let a2 = acc + x in k a2
   in foldr step idI xs 0

{-# NOINLINE build #-}
build :: Int -> T
build n = if n == 0 then Leaf else let l = build (n - 1); r = build (n - 1) in Node l n r

-- tree sum in continuation-passing style
{-# NOINLINE sumT #-}
sumT :: T -> (Int -> Int) -> Int
sumT t k = case t of
  Leaf -> k 0
  Node l x r ->
    let kl :: Int -> Int
        kl a = let kr :: Int -> Int
                   kr b = let s = a + x + b in k s
                in sumT r kr
     in sumT l kl

-- maximum with an accumulating function
{-# NOINLINE maxAcc #-}
maxAcc :: [Int] -> Int -> Int
maxAcc xs = case xs of
  [] -> idI
  (y : ys) -> let mx :: Int -> Int
                  mx acc = let m = max acc y in maxAcc ys m
               in mx

{-# NOINLINE double #-}
double :: Int -> Int
double x = x * 2

main :: IO ()
main =
  print
    ( let xs = [3, 1, 4, 1, 5, 9, 2, 6]
          t = build 3
       in let a = sumCPS xs
              b = sumT t idI
              c = sumT t double
              d = maxAcc xs 0
           in [a, b, c, d]
    )
