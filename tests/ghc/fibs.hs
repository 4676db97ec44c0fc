-- Twin of programs/fibs.stg (see README.md).
main :: IO ()
main = print (take 30 fibs)

fibs :: [Int]
fibs =
  let tl = tail fibs
   in let rest = zipWith (+) fibs tl
       in 0 : 1 : rest
