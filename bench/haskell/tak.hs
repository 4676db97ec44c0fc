-- Twin of bench/programs/tak.stg (from tests/ghc/, with the benchmark's parameters).
-- Twin of programs/tak.stg (see README.md).
main :: IO ()
main = print (tak 24 16 8)

tak :: Int -> Int -> Int -> Int
tak x y z =
  if y < x
    then
      let x1 = x - 1
          y1 = y - 1
          z1 = z - 1
       in let a = tak x1 y z
              b = tak y1 z x
              c = tak z1 x y
           in tak a b c
    else z
