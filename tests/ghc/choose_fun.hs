-- Twin of programs/choose_fun.stg (see README.md).
sq :: Int -> Int
sq x = x * x

neg :: Int -> Int
neg x = negate x

choose :: Bool -> (Int -> Int)
choose b = if b then sq else neg

main :: IO ()
main =
  print
    ( let f = choose True
       in let r1 = f 5
              r2 = f 6
           in [r1, r2]
    )
