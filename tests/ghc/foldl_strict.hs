-- Twin of programs/foldl_strict.stg (see README.md).
import Data.List (foldl')

main :: IO ()
main = print (let xs = [1 .. 5000] in foldl' (+) 0 xs :: Int)
