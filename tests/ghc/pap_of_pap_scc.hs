{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

main :: IO ()
main =
  print
    ( let p1 = {-# SCC "p1" #-} add3 1
          p2 = {-# SCC "p2" #-} p1 2
          r = {-# SCC "r" #-} p2 3
       in [r]
    )
