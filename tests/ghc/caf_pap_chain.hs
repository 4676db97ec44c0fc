{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

{-# NOINLINE adder #-}
adder :: Int -> Int -> Int
adder a = let add b = a + b in add

inc5 :: Int -> Int
inc5 = adder 5

p1 :: Int -> Int -> Int
p1 = add3 1

p2 :: Int -> Int
p2 = p1 2

use :: (Int -> Int) -> Int -> Int
use f x = f x

main :: IO ()
main =
  print
    ( let r1 = p2 3
          r2 = use p2 4
          r3 = p1 5 6
          r4 = inc5 1
          r5 = use inc5 2
       in [r1, r2, r3, r4, r5]
    )
