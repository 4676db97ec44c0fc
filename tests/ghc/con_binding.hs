-- Twin of tests/ghc/con_binding.stg (see README.md): a disagreement.
f :: Int -> Int
f x = let p = (x, x) in case p of (a, b) -> a + b

g :: Int -> [Int]
g x = let l = x : [] in l

h :: Int -> [Int]
h x = let l = x : l in take 2 l

main :: IO ()
main =
  print
    ( let a = f 3
          bs = g 4
          cs = h 5
          rest = bs ++ cs
       in a : rest
    )
