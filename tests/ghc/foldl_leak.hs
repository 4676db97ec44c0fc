-- Twin of programs/foldl_leak.stg (see README.md).
main :: IO ()
main = print (let xs = [1 .. 5000] in foldl (+) 0 xs :: Int)
