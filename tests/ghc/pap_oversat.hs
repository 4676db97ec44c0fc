{-# NOINLINE adder2 #-}
adder2 :: Int -> Int -> Int -> Int
adder2 a b = let k c = a + b + c in k

app2 :: (Int -> Int -> Int) -> Int -> Int -> Int
app2 f x y = f x y

sq :: Int -> Int
sq x = x * x

twice :: (Int -> Int) -> Int -> Int
twice f x = let fx = f x in f fx

main :: IO ()
main =
  print
    ( let p = adder2 1
          r1 = p 2 3
          r2 = app2 p 4 5
          r3 = adder2 6 7 8
          r4 = twice sq 3
          r5 = sq 4
       in [r1, r2, r3, r4, r5]
    )
