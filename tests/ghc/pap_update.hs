-- Twin of programs/pap_update.stg (see README.md).
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

mulAdd :: Int -> Int -> Int -> Int
mulAdd m a b = m * (a + b)

main :: IO ()
main = print [f 2, f 92, f 992, k 3 97, k 10 97]
  where
    f = add3 1 10
    k = {-# SCC "mk" #-} mulAdd 2
