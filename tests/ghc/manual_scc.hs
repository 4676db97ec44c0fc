-- Twin of programs/manual_scc.stg (see README.md).
count :: Int -> Int
count n =
  if n == 0
    then 0
    else
      let n1 = n - 1
       in let r = {-# SCC "step" #-} count n1 in r + 1

main :: IO ()
main =
  print
    ( {-# SCC "outer" #-}
      ( let a = count 5
            b = {-# SCC "inner" #-} count 3
         in [a, b]
      )
    )
