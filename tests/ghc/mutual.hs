-- Twin of programs/mutual.stg (see README.md).
isEven :: Int -> Bool
isEven n = if n == 0 then True else let n1 = n - 1 in isOdd n1

isOdd :: Int -> Bool
isOdd n = if n == 0 then False else let n1 = n - 1 in isEven n1

main :: IO ()
main =
  print
    ( let xs = [0 .. 30] :: [Int]
       in let es = filter isEven xs
              os = filter isOdd xs
           in let e = length es
                  o = length os
               in [e, o]
    )
