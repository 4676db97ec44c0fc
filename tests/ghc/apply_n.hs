-- Twin of tests/ghc/apply_n.stg (see README.md).
applyN :: Int -> (Int -> Int) -> Int -> Int
applyN n f x = if n == 0 then x else let n1 = n - 1; fx = f x in applyN n1 f fx

main :: IO ()
main =
  print
    ( let h y = y + 3
          r = applyN 4 h 0
          s = applyN 2 h 10
       in [r, s]
    )
