sq :: Int -> Int
sq x = x * x

neg :: Int -> Int
neg x = negate x

{-# NOINLINE choose #-}
choose :: Bool -> (Int -> Int)
choose b = if b then sq else neg

main :: IO ()
main =
  print
    ( let f = choose True
          h = f
          r1 = h 5
          r2 = f 6
       in [r1, r2]
    )
