{-# NOINLINE add4 #-}
add4 :: Int -> Int -> Int -> Int -> Int
add4 a b c d = a + b + c + d

{-# NOINLINE pick #-}
pick :: Int -> Int -> (Int -> Int)
pick a b = let sel x = x * a + b in sel

{-# NOINLINE app #-}
app :: (Int -> Int) -> Int -> Int
app f x = f x

applyAll :: [Int -> Int] -> Int -> [Int]
applyAll fs x = case fs of
  [] -> []
  (f : ft) -> let y = f x; rest = applyAll ft x in y : rest

mkList :: Int -> [Int -> Int]
mkList n = let p = add4 n 1 2; q1 = pick n 1 in [p, q1]

main :: IO ()
main =
  print
    ( let p1 = add4 1
          pk = pick 2
          fs = mkList 7
          p2 = p1 2
          pk5 = pk 5
          r3 = pk 3 4
          r5 = sum (applyAll fs 1)
          p3 = p2 3
          r4 = app pk5 6
          r1 = p3 4
          r2 = app p3 5
       in [r1, r2, r3, r4, r5]
    )
