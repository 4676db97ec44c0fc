-- Twin of programs/pap_update.stg (see README.md).
add3 :: Int -> Int -> Int -> Int
add3 a b c = let ab = a + b in ab + c

mulAdd :: Int -> Int -> Int -> Int
mulAdd m a b = let s = a + b in m * s

main :: IO ()
main =
  print
    ( let f = add3 1 10
          k = {-# SCC "mk" #-} mulAdd 2
       in let r1 = f 2
              r2 = f 92
              r3 = f 992
              r4 = k 3 97
              r5 = k 10 97
           in [r1, r2, r3, r4, r5]
    )
