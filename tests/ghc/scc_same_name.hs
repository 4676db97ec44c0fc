-- Twin of programs/scc_same_name.stg (see README.md).
sq :: Int -> Int
sq x = x * x

main :: IO ()
main =
  print
    ( let a = {-# SCC "sq" #-} sq 5
          b = sq 6
       in [a, b]
    )
