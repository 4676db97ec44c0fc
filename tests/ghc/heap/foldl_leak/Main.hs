-- Heap twin of programs/foldl_leak.stg, 50,000 elements (see ../../README.md).
main :: IO ()
main = print (let xs = [1 .. 50000] in foldl (+) 0 xs :: Int)
