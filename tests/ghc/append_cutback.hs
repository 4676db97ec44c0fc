{-# NOINLINE idI #-}
idI :: Int -> Int
idI x = x

{-# NOINLINE mk #-}
mk :: (Int -> Int) -> Int -> (Int -> Int)
mk h k = let g x = h x + k in g

main :: IO ()
main =
  print
    ( let f1 = mk idI 1
          f2 = mk f1 2
          f3 = mk f2 3
          r1 = f2 5
          r2 = f3 6
          r3 = f1 7
       in [r1, r2, r3]
    )
