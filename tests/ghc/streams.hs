takeW :: (Int -> Bool) -> [Int] -> [Int]
takeW p xs = case xs of
  [] -> []
  (x : xt) -> if p x then let rest = takeW p xt in x : rest else []

stream :: Int -> [Int]
stream k = let nxt x = x * k in iterate nxt 1

small :: Int -> Bool
small x = x < 100

pairUp :: [Int] -> [Int] -> [Int]
pairUp xs ys = let comb a b = a + b * 10 in zipWith comb xs ys

main :: IO ()
main =
  print
    ( let s = stream 2
          ps = takeW small s
          q = pairUp ps (stream 3)
          a = head q
          b = q !! 2
          c = length ps
       in [a, b, c]
    )
