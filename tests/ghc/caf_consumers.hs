sq :: Int -> Int
sq x = x * x

nums :: [Int]
nums = map sq [1 .. 5]

{-# NOINLINE big #-}
big :: Int -> Int -> Bool
big t x = x > t

addAll :: [Int] -> Int
addAll = foldr (+) 0

countBig :: Int -> Int
countBig t = let bt = big t in length (filter bt nums)

useAll :: Int -> Int
useAll n = addAll (take n nums)

main :: IO ()
main =
  print
    ( let a = addAll nums
          b = countBig 5
          c = useAll 3
       in [a, b, c]
    )
