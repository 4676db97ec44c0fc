-- Output check for programs/prelude_tour.stg: the same values computed with
-- base, printed with derived Show. Not a profiling twin (its structure does
-- not mirror the STG); tests/ghc/regenerate.sh checks its output only.
import Data.List (foldl')
data Bools = Bools Bool Bool Bool Bool Bool Bool Bool Bool deriving Show
data Ints = Ints Int Int Int Int Int Int Int Int Bools deriving Show
data Lists = Lists [Int] [Int] Int Int [Int] [Int] [Int] [Int] [Int] Int deriving Show
data More = More Int Int Int [Int] [Int] [Int] [Int] [Int] Int [Int] deriving Show
data Misc = Misc Bool Bool Bool Bool Bool Bool Int Int Int Int Int Int Int Int (Maybe Int) deriving Show
data R = R Ints Lists More Misc deriving Show
main = do
  let xs = [1..5] :: [Int]
      m7 = -7 :: Int
      ints = Ints (m7 `div` 2) (m7 `mod` 2) (m7 `quot` 2) (m7 `rem` 2) (negate m7) (max m7 2) (min m7 2) (3-5)
               (Bools (2==2) (2/=2) (2<3) (3<=2) (2>=2) (not (2/=2)) ((2==2) && (2/=2)) ((2/=2) || (2==2)))
      lists = Lists (map (*2) xs) (reverse xs) (sum xs) (length xs) (take 2 xs) (drop 2 xs) (filter (>2) xs) (zipWith (*) xs xs) (xs ++ xs) (xs !! 2)
      more = More (foldl (-) 1 xs) (foldr (-) 1 xs) (foldl' (-) 1 xs) (take 5 (iterate (*2) 1)) (take 2 (repeat 3)) (replicate 3 0) (concatMap (\x -> replicate x x) xs) (concat [xs, xs]) (head xs) (tail xs)
      misc = Misc (null xs) (null []) (all (>2) xs) (any (>2) xs) (and (map odd xs)) (or (map odd xs)) (maybe 0 (*2) Nothing) (maybe 0 (*2) (Just 3)) (fromMaybe' 1 (Just m7)) (seq m7 2) (const 1 2) (id 5) (((*2) . (*2)) 3) (flip (-) 1 5) (Just m7)
      fromMaybe' d m = maybe d id m
  print (R ints lists more misc)
