data Box = Box (Int -> Int)

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = {-# SCC "i" #-} (x + 1)

main :: IO ()
main =
  print
    ( let b = {-# SCC "k" #-} Box inc
          r = case b of Box f -> f 5
       in [r]
    )
