-- Twin of programs/foldr_chain.stg (see README.md).
step :: Int -> Int -> Int
step x acc = x + acc

mySum :: [Int] -> Int
mySum xs = case xs of
  [] -> 0
  y : ys -> let rest = mySum ys in y + rest

main :: IO ()
main =
  print
    ( let xs = [1 .. 200]
       in let a = foldr step 0 xs
              b = mySum xs
           in [a, b]
    )
