-- Twin of tests/ghc/mod_dicts/Class.stg (see tests/ghc/README.md).
module Class (NumD (..), OrdD (..), plusD, timesD, zeroD, oneD, leqD, numO, sumD, powD, dotD, maxSumD, insD, sortD) where

data NumD = NumD (Int -> Int -> Int) (Int -> Int -> Int) Int Int

data OrdD = OrdD (Int -> Int -> Bool) NumD

{-# NOINLINE plusD #-}
plusD :: NumD -> Int -> Int -> Int
plusD d = case d of NumD p t z u -> p

{-# NOINLINE timesD #-}
timesD :: NumD -> Int -> Int -> Int
timesD d = case d of NumD p t z u -> t

{-# NOINLINE zeroD #-}
zeroD :: NumD -> Int
zeroD d = case d of NumD p t z u -> z

{-# NOINLINE oneD #-}
oneD :: NumD -> Int
oneD d = case d of NumD p t z u -> u

{-# NOINLINE leqD #-}
leqD :: OrdD -> Int -> Int -> Bool
leqD o = case o of OrdD l d -> l

{-# NOINLINE numO #-}
numO :: OrdD -> NumD
numO o = case o of OrdD l d -> d

{-# NOINLINE sumD #-}
sumD :: NumD -> [Int] -> Int
sumD d xs = case xs of
  [] -> zeroD d
  (y : ys) -> let r = sumD d ys in plusD d y r

{-# NOINLINE powD #-}
powD :: NumD -> Int -> Int -> Int
powD d x n =
  if n == 0
    then oneD d
    else let n1 = n - 1 in let r = powD d x n1 in timesD d x r

{-# NOINLINE dotD #-}
dotD :: NumD -> [Int] -> [Int] -> Int
dotD d xs ys =
  let mul :: Int -> Int -> Int
      mul = timesD d
   in let ps = zipWith mul xs ys in sumD d ps

{-# NOINLINE maxSumD #-}
maxSumD :: OrdD -> [Int] -> [Int] -> Int
maxSumD o xs ys =
  let d = numO o
   in let a = sumD d xs
          b = sumD d ys
       in if leqD o a b then b else a

{-# NOINLINE insD #-}
insD :: OrdD -> Int -> [Int] -> [Int]
insD o x ys = case ys of
  [] -> [x]
  (y : rest) -> if leqD o x y then x : ys else let r = insD o x rest in y : r

{-# NOINLINE sortD #-}
sortD :: OrdD -> [Int] -> [Int]
sortD o xs = case xs of
  [] -> []
  (y : ys) -> let s = sortD o ys in insD o y s
