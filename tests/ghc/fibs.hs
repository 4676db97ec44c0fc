-- Twin of programs/fibs.stg (see README.md).
main :: IO ()
main = print (take 30 fibs)

fibs :: [Int]
fibs = 0 : 1 : zipWith (+) fibs (tail fibs)
