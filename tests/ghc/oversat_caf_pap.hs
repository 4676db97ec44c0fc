{-# NOINLINE f1 #-}
f1 :: Int -> (Int -> Int) -> (Int -> Int -> Int)
f1 n1 x2 =
  (let { {-# NOINLINE g3 #-}; g3 :: Int -> Int -> Int; g3 x4 x5 = (x2 x4) }
   in g3)

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = x + 0

{-# NOINLINE c2 #-}
c2 :: (Int -> Int)
c2 =
  (let { v23 :: (Int -> Int); v23 = (f1 0 inc 2) }
   in (f1 0 v23 2))

main :: IO ()
main =
  print
    (let { r1 :: Int; r1 = (c2 0) }
     in (let { r2 :: Int; r2 = (c2 0) } in [r1, r2]))
