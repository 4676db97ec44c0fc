-- Twin of programs/local_loop.stg (see README.md).
sumTo :: Int -> Int
sumTo n =
  let go acc i =
        if i > n
          then acc
          else
            let acc1 = acc + i
                i1 = i + 1
             in go acc1 i1
   in go 0 1

main :: IO ()
main =
  print
    ( let a = sumTo 10
          b = sumTo 20
       in [a, b]
    )
