{-# LANGUAGE MagicHash #-}

-- | The functions of programs/Prelude.stg that the benchmarks use, written
-- in Haskell the way the STG Prelude writes them: boxed Ints unboxed by
-- case, lists built lazily. GHCi compiles this module to bytecode with the
-- program, so nothing of the benchmark runs as base's native code except
-- the primitive operations (+#, remInt#, ...) and printing.
--
-- Used by bench/run.sh for the "GHCi, same program" column: the twins in
-- this directory are the twins in bench/haskell/ with their Prelude
-- functions taken from here instead of base.
module StgPrelude
  ( Int,
    Bool (..),
    plusInt,
    minusInt,
    ltInt,
    neInt,
    eqInt,
    remInt,
    map,
    filter,
    foldr,
    enumFromTo,
    enumFrom,
    concatMap,
    append,
    length,
    index,
  )
where

import GHC.Exts (Int (I#), Int#, remInt#, (+#), (-#), (/=#), (<#), (==#), (>#))
import Prelude (Bool (..))

plusInt, minusInt, remInt :: Int -> Int -> Int
plusInt (I# a) (I# b) = I# (a +# b)
minusInt (I# a) (I# b) = I# (a -# b)
remInt (I# a) (I# b) = I# (remInt# a b)

ltInt, neInt, eqInt :: Int -> Int -> Bool
ltInt (I# a) (I# b) = case a <# b of
  0# -> False
  _ -> True
neInt (I# a) (I# b) = case a /=# b of
  0# -> False
  _ -> True
eqInt (I# a) (I# b) = case a ==# b of
  0# -> False
  _ -> True

map :: (a -> b) -> [a] -> [b]
map f xs = case xs of
  [] -> []
  y : ys -> f y : map f ys

filter :: (a -> Bool) -> [a] -> [a]
filter p xs = case xs of
  [] -> []
  y : ys -> case p y of
    True -> y : filter p ys
    False -> filter p ys

foldr :: (a -> b -> b) -> b -> [a] -> b
foldr k z xs = case xs of
  [] -> z
  y : ys -> k y (foldr k z ys)

enumFromTo :: Int -> Int -> [Int]
enumFromTo (I# a) (I# b) = enumFromToW a b

enumFromToW :: Int# -> Int# -> [Int]
enumFromToW a b = case a ># b of
  1# -> []
  _ -> I# a : enumFromToW (a +# 1#) b

enumFrom :: Int -> [Int]
enumFrom (I# a) = enumFromW a

enumFromW :: Int# -> [Int]
enumFromW a = I# a : enumFromW (a +# 1#)

concatMap :: (a -> [b]) -> [a] -> [b]
concatMap f xs = case xs of
  [] -> []
  y : ys -> append (f y) (concatMap f ys)

append :: [a] -> [a] -> [a]
append xs ys = case xs of
  [] -> ys
  z : zs -> z : append zs ys

length :: [a] -> Int
length xs = I# (lengthW xs 0#)

lengthW :: [a] -> Int# -> Int#
lengthW xs n = case xs of
  [] -> n
  _ : ys -> lengthW ys (n +# 1#)

index :: [a] -> Int -> a
index xs (I# n) = case n <# 0# of
  0# -> indexW xs n

indexW :: [a] -> Int# -> a
indexW xs n = case xs of
  y : ys -> case n of
    0# -> y
    _ -> indexW ys (n -# 1#)
