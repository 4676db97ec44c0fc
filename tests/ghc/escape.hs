-- Twin of programs/escape.stg (see README.md).
mkAdder :: Int -> (Int -> Int)
mkAdder n = let add y = n + y in add

mul :: Int -> Int -> Int
mul a b = a * b

mkMul :: Int -> (Int -> Int)
mkMul n = mul n

applyTo :: (Int -> Int) -> Int -> Int
applyTo f x = f x

main :: IO ()
main =
  print
    ( let a5 = mkAdder 5
          m3 = mkMul 3
       in let r1 = a5 1
              r2 = applyTo a5 10
              r3 = m3 7
              r4 = applyTo m3 4
           in [r1, r2, r3, r4]
    )
