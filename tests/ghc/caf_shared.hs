-- Twin of programs/caf_shared.stg (see README.md).
sq :: Int -> Int
sq x = x * x

add :: Int -> Int -> Int
add a b = a + b

table :: [Int]
table = let xs = [1 .. 10] in map sq xs

addTen :: Int -> Int
addTen = add 10

total :: Int -> Int
total n = let ys = take n table in sum ys

lookupT :: Int -> Int
lookupT i = let e = table !! i in addTen e

main :: IO ()
main =
  print
    ( let a = total 5
          b = total 10
          c = lookupT 3
          d = lookupT 7
       in [a, b, c, d]
    )
