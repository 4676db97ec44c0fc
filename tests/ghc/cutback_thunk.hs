a :: Int -> Int
a n = if n == 0 then 0 else let t = b (n - 1) in t + 1

b :: Int -> Int
b n = let u = a n in u * 2

main :: IO ()
main =
  print
    ( let x = a 3
          y = b 2
       in [x, y]
    )
