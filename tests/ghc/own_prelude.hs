-- Twin of tests/ghc/own_prelude.stg (see README.md).
import Prelude hiding (elem, filter, foldr, length, map, maximum, reverse, take)

next :: Int -> Int
next r = (r * 9 + 5) `rem` 31

foldr :: (Int -> Int -> Int) -> Int -> [Int] -> Int
foldr k z xs = case xs of
  [] -> z
  (y : ys) -> let rest = foldr k z ys in k y rest

foldl' :: (Int -> Int -> Int) -> Int -> [Int] -> Int
foldl' k z xs = case xs of
  [] -> z
  (y : ys) -> case k z y of
    acc -> acc `seq` foldl' k acc ys

map :: (Int -> Int) -> [Int] -> [Int]
map f xs = case xs of
  [] -> []
  (y : ys) ->
    let fy = f y
        rest = map f ys
     in fy : rest

filter :: (Int -> Bool) -> [Int] -> [Int]
filter p xs = case xs of
  [] -> []
  (y : ys) -> let rest = filter p ys in if p y then y : rest else rest

length :: [Int] -> Int
length xs =
  let cnt :: Int -> Int -> Int
      cnt _ n = n + 1
   in foldr cnt 0 xs

append :: [Int] -> [Int] -> [Int]
append xs ys = case xs of
  [] -> ys
  (z : zs) -> let rest = append zs ys in z : rest

reverse :: [Int] -> [Int]
reverse xs = case xs of
  [] -> []
  (y : ys) -> let r = reverse ys in append r [y]

elem :: Int -> [Int] -> Bool
elem x xs = case xs of
  [] -> False
  (y : ys) -> if x == y then True else elem x ys

take :: Int -> [Int] -> [Int]
take n xs =
  if n <= 0
    then []
    else case xs of
      [] -> []
      (y : ys) -> let n1 = n - 1 in let rest = take n1 ys in y : rest

maximum :: [Int] -> Int
maximum xs = case xs of
  (y : ys) ->
    let bigger :: Int -> Int -> Int
        bigger a b = max a b
     in foldl' bigger y ys

main :: IO ()
main =
  print
    ( let rs = iterate next 3
          dbl :: Int -> Int
          dbl x = x + x
          odd3 :: Int -> Bool
          odd3 x = x `rem` 3 == 0
          twoOf :: Int -> [Int]
          twoOf x = [x, x]
       in let xs = take 12 rs
           in let ds = map dbl xs
                  os = filter odd3 xs
                  rv = reverse xs
                  n = length xs
                  s = sum xs
                  mx = maximum xs
                  has = if elem 7 xs then 1 else 0
               in let cc = concat [xs, os]
                      rp = replicate 3 n
                      cm = concatMap twoOf os
                      both = append ds rv
                   in let t2 = append rp cm
                       in let t1 = append cc t2
                           in append both (n : s : mx : has : t1)
    )
