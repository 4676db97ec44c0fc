f :: Int -> Int
f n = if n == 0 then 0 else let r = {-# SCC "step" #-} g (n - 1) in r + 1

g :: Int -> Int
g n = let u = {-# SCC "inner" #-} f n in u * 2

h :: Int -> Int
h n = if n == 0 then 0 else {-# SCC "hstep" #-} (h (n - 1) + n)

main :: IO ()
main =
  print
    ( let x = f 3
          y = g 2
          z = h 4
       in [x, y, z]
    )
