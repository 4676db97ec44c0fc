-- Twin of tests/ghc/mod_oversat/Main.stg (see tests/ghc/README.md).
import Apply
import Build

main :: IO ()
main =
  print
    ( let p1 :: Int -> Int -> Int
          p1 = pick 1
          p2 :: Int -> Int -> Int
          p2 = pick 2
          l4 :: Int -> Int -> Int
          l4 = mkLin 4
          c5 :: Int -> Int -> Int
          c5 = curry3 5
          os = opsFor 2
       in let c52 :: Int -> Int
              c52 = c5 2
              a = pick 0 3 4
              b = pick 2 3 4
              c = app2 p1 10 3
              d = app2 p2 3 4
              e = mkLin 3 5 6
              f = app2 l4 1 2
              g = curry3 1 2 3
              i = foldApp l4 0 [1, 2, 3]
              j = appAll os 5 6
              k = flipA p2 1 7
              m = partial c5 3 4
           in let h = c52 4 in a : b : c : d : e : f : g : h : i : k : m : j
    )
