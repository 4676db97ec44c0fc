mk :: Int -> Int -> Int
mk n = {-# SCC "build" #-} (let g y = y + n in g)

main :: IO ()
main =
  print
    ( let k = mk 3
          h = {-# SCC "local" #-} (let m y = y * 2 in m)
          r1 = k 1
          r2 = k 2
          r3 = h 5
          r4 = mk 4 10
       in [r1, r2, r3, r4]
    )
