-- Twin of tests/ghc/two_modules/Lib.stg (see tests/ghc/README.md).
module Lib (square, sumSquares, table, scale) where

square :: Int -> Int
square x = x * x

sumSquares :: [Int] -> Int
sumSquares xs = case xs of
  [] -> 0
  (y : ys) -> square y + sumSquares ys

table :: [Int]
table = map square [1, 2, 3]

scale :: Int -> [Int] -> [Int]
scale k xs = map mul xs
  where
    mul x = k * x
