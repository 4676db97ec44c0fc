-- Twin of tests/ghc/pattern_bind.stg (see README.md).
splitAt' :: Int -> [Int] -> ([Int], [Int])
splitAt' n xs =
  if n == 0
    then ([], xs)
    else case xs of
      [] -> ([], [])
      (y : ys) ->
        let n1 = n - 1
            (a, b) = splitAt' n1 ys
         in (y : a, b)

total :: [Int] -> Int
total xs = case xs of
  [] -> 0
  (y : ys) -> y + total ys

main :: IO ()
main =
  print
    ( let (front, back) = splitAt' 2 [1, 2, 3, 4, 5]
          s = total front
          t = total back
       in [s, t]
    )
