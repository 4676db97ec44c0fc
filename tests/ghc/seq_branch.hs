sq :: Int -> Int
sq x = x * x

neg :: Int -> Int
neg x = negate x

pick :: Bool -> Int -> [Int]
pick b x = case b of
  True -> let t = sq x in [t]
  False -> let u = neg x in [u]

mid :: Bool -> Int -> [Int]
mid b x = pick b x

force :: [Int] -> Int
force xs = case xs of
  (y : _) -> (y `seq` y) + 1

main :: IO ()
main =
  print
    ( let p = mid True 3
          q = mid False 4
          e = sq 7
          a = force p
          b = force q
          c = e `seq` 1
          d = e + 1
       in [a, b, c, d]
    )
