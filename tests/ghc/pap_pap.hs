{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

app :: (Int -> Int) -> Int -> Int
app f x = f x

main :: IO ()
main =
  print
    ( let p1 = add3 1
          p2 = p1 2
          q = p1 5
          r1 = p2 3
          r2 = app p2 4
          r3 = p1 5 6
          r4 = app q 6
       in [r1, r2, r3, r4]
    )
