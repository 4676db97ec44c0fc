-- Twin of programs/hof_closure.stg (see README.md).
twice :: (Int -> Int) -> Int -> Int
twice h y = let hy = h y in h hy

scale :: Int -> Int
scale x = let k y = x * y in twice k x

constant :: Int -> Int
constant x = let cx = const x in twice cx x

main :: IO ()
main =
  print
    ( let a = scale 3
          b = scale 5
          c = constant 7
       in [a, b, c]
    )
