-- Twin of programs/foldl_leak.stg (see README.md).
main :: IO ()
main = print (foldl (+) 0 [1 .. 5000 :: Int])
