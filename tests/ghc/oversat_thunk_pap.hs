{-# NOINLINE f1 #-}
f1 :: Int -> (Int -> Int) -> Int
f1 n1 x3 =
  (x3 n1)

{-# NOINLINE f2 #-}
f2 :: Int -> (Int -> Int) -> (Int -> Int -> Int)
f2 n6 x7 =
  (if n6 <= 0
    then (let { {-# NOINLINE g8 #-}; g8 :: Int -> Int -> Int; g8 x9 x10 = (x7 x9) }
       in g8)
    else (let { {-# NOINLINE g26 #-}; g26 :: Int -> Int -> Int; g26 x27 x28 = (f3 x27) }
       in g26))

{-# NOINLINE f3 #-}
f3 :: Int -> Int
f3 x30 =
  (let { v31 :: (Int -> Int); v31 = (f2 0 inc x30) }
   in (f1 0 v31))

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = x + 0

main :: IO ()
main =
  print
    (let { r77 :: Int; r77 = (f2 1 inc 0 0) }
     in [r77])
