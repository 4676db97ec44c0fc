{-# NOINLINE idI #-}
idI :: Int -> Int
idI x = x

{-# NOINLINE mk #-}
mk :: (Int -> Int) -> Int -> (Int -> Int)
mk h k = let {-# NOINLINE g #-}
             g a x = h x + k + a
          in g 0

main :: IO ()
main =
  print
    ( let f1 = mk idI 1
          r = mk f1 2 5
       in [r]
    )
