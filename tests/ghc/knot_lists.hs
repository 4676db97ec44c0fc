-- Twin of tests/ghc/knot_lists.stg (see README.md).
-- Self-referential lazy structures: fibs as a CAF and as a local letrec,
-- both through a user zipWith; a user iterate and a user cycle; each
-- consumed by two different consumers.

{-# NOINLINE zipW #-}
zipW :: (Int -> Int -> Int) -> [Int] -> [Int] -> [Int]
zipW f xs ys = case xs of
  [] -> []
  (x : xt) -> case ys of
    [] -> []
    (y : yt) -> let z = f x y; zt = zipW f xt yt in z : zt

{-# NOINLINE add #-}
add :: Int -> Int -> Int
add a b = a + b

{-# NOINLINE cons2 #-}
cons2 :: Int -> Int -> [Int] -> [Int]
cons2 a b r = a : b : r

fibsCaf :: [Int]
fibsCaf = let t = zipW add fibsCaf (tail fibsCaf) in 0 : 1 : t

{-# NOINLINE fibsLocal #-}
fibsLocal :: Int -> [Int]
fibsLocal k =
  let fs = cons2 k k rest
      rest = zipW add fs (tail fs)
   in fs

{-# NOINLINE iter #-}
iter :: (Int -> Int) -> Int -> [Int]
iter f x = let fx = f x; more = iter f fx in x : more

{-# NOINLINE app #-}
app :: [Int] -> [Int] -> [Int]
app xs ys = case xs of
  [] -> ys
  (x : xt) -> let r = app xt ys in x : r

{-# NOINLINE cyc #-}
cyc :: [Int] -> [Int]
cyc xs = let ys = app xs ys in ys

{-# NOINLINE sumFirst #-}
sumFirst :: Int -> [Int] -> Int
sumFirst n xs = if n == 0 then 0 else case xs of
  [] -> 0
  (x : xt) -> x + sumFirst (n - 1) xt

{-# NOINLINE nth #-}
nth :: Int -> [Int] -> Int
nth n xs = case xs of
  [] -> 0
  (x : xt) -> if n == 0 then x else nth (n - 1) xt

{-# NOINLINE dbl #-}
dbl :: Int -> Int
dbl x = x * 2

main :: IO ()
main =
  print
    ( let a = sumFirst 10 fibsCaf
          b = nth 15 fibsCaf
          l = fibsLocal 1
          c = nth 9 l
          d = sumFirst 6 l
          p = iter dbl 1
          e = nth 7 p
          f = sumFirst 4 p
          cy = cyc [1, 2, 3]
          g = nth 10 cy
          h = sumFirst 8 cy
       in [a, b, c, d, e, f, g, h]
    )
