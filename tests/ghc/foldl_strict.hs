-- Twin of programs/foldl_strict.stg (see README.md).
import Data.List (foldl')

main :: IO ()
main = print (foldl' (+) 0 [1 .. 5000 :: Int])
