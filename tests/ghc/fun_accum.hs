inc :: Int -> Int
inc x = x + 1

dbl :: Int -> Int
dbl x = x * 2

applyTo :: Int -> (Int -> Int) -> Int
applyTo x f = f x

main :: IO ()
main =
  print
    ( let comp = foldr (.) id [inc, dbl, inc]
          at3 = applyTo 3
          r1 = comp 5
          r2 = comp 7
          rs = map at3 [inc, dbl, inc]
       in r1 : r2 : rs
    )
