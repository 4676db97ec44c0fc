-- Twin of tests/ghc/fusion.stg (see README.md): foldr/build fusion by
-- hand: generators uptoG (polymorphic in the result), buildL, mapFB,
-- filterFB; list functions written as build of foldr (mapL, filterL,
-- upto) against the same pipeline fused by hand (sumSqOdd); sccs around a
-- partial application given to buildL, a local "cons" and a function
-- argument of uptoG; a pipeline of list transformers run by runPipe.
{-# NOINLINE foldrU #-}
foldrU :: (Int -> b -> b) -> b -> [Int] -> b
foldrU c n xs = case xs of
  [] -> n
  (y : ys) -> let r = foldrU c n ys in c y r

{-# NOINLINE consF #-}
consF :: Int -> [Int] -> [Int]
consF x xs = x : xs

{-# NOINLINE buildL #-}
buildL :: ((Int -> [Int] -> [Int]) -> [Int] -> [Int]) -> [Int]
buildL g = g consF []

{-# NOINLINE uptoG #-}
uptoG :: Int -> Int -> (Int -> b -> b) -> b -> b
uptoG a b c n = if a > b then n else
  let a1 = a + 1
      rest = uptoG a1 b c n
   in c a rest

{-# NOINLINE mapFB #-}
mapFB :: (Int -> b -> b) -> (Int -> Int) -> Int -> b -> b
mapFB c f x ys = let fx = f x in c fx ys

{-# NOINLINE filterFB #-}
filterFB :: (Int -> b -> b) -> (Int -> Bool) -> Int -> b -> b
filterFB c p x ys = if p x then c x ys else ys

{-# NOINLINE plusF #-}
plusF :: Int -> Int -> Int
plusF x acc = x + acc

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = x + 1

{-# NOINLINE isOdd #-}
isOdd :: Int -> Bool
isOdd x = x `rem` 2 == 1

{-# NOINLINE upto #-}
upto :: Int -> Int -> [Int]
upto a b = let g = {-# SCC "gen" #-} uptoG a b in buildL g

{-# NOINLINE mapL #-}
mapL :: (Int -> Int) -> [Int] -> [Int]
mapL f xs =
  let g :: (Int -> [Int] -> [Int]) -> [Int] -> [Int]
      g c n = let mc = {-# SCC "mc" #-} mapFB c f in foldrU mc n xs
   in buildL g

{-# NOINLINE filterL #-}
filterL :: (Int -> Bool) -> [Int] -> [Int]
filterL p xs =
  let g :: (Int -> [Int] -> [Int]) -> [Int] -> [Int]
      g c n = let fc :: Int -> [Int] -> [Int]
                  fc y r = filterFB c p y r
               in foldrU fc n xs
   in buildL g

{-# NOINLINE sumL #-}
sumL :: [Int] -> Int
sumL xs = foldrU plusF 0 xs

{-# NOINLINE unfused #-}
unfused :: Int -> Int
unfused n =
  let l1 = upto 1 n
   in let l2 = filterL isOdd l1
       in let l3 = mapL sq l2
           in sumL l3

{-# NOINLINE sumSqOdd #-}
sumSqOdd :: Int -> Int
sumSqOdd n =
  let c1 :: Int -> Int -> Int
      c1 y r = mapFB plusF sq y r
      c2 :: Int -> Int -> Int
      c2 y r = filterFB c1 isOdd y r
   in let st = {-# SCC "step" #-} c2
       in uptoG 1 n st 0

{-# NOINLINE runPipe #-}
runPipe :: [[Int] -> [Int]] -> [Int] -> [Int]
runPipe fs xs = case fs of
  [] -> xs
  (f : rest) -> let ys = f xs in runPipe rest ys

{-# NOINLINE p1 #-}
p1 :: [Int] -> [Int]
p1 xs = mapL sq xs

{-# NOINLINE p2 #-}
p2 :: [Int] -> [Int]
p2 xs = filterL isOdd xs

{-# NOINLINE p3 #-}
p3 :: [Int] -> [Int]
p3 xs = mapL inc xs

main :: IO ()
main =
  print
    ( let a = unfused 300
          b = sumSqOdd 300
          src = upto 1 40
       in let ps = runPipe [p1, p3, p2, p1] src
           in let c = sumL ps
                  d = take 4 ps
               in a : b : c : d
    )
