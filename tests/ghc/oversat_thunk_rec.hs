{-# NOINLINE f1 #-}
f1 :: Int -> (Int -> Int) -> (Int -> Int -> Int)
f1 n1 x3 =
  (if n1 <= 0
    then (let { {-# NOINLINE g4 #-}; g4 :: Int -> Int -> Int; g4 x5 x6 = (x3 x5) }
       in g4)
    else (let { v12 :: (Int -> Int); v12 = (f1 0 x3 0) }
       in (f1 0 v12)))

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = x + 0

main :: IO ()
main =
  print
    (let { r1 :: Int; r1 = (f1 1 inc 0 0) }
     in [r1])
