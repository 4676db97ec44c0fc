-- Twin of programs/nested_scc_map.stg (see README.md). The STG's global
-- constants x = 3 and y = 10 are literals here (GHC would give a CAF x its
-- own cost centre; stg-run gives constructor bindings none).
l :: [Int]
l = enumFromTo 1 5

f :: Int -> Int -> Int
f m a = m * a

g :: Int -> Int -> Int
g k a = k + a

main :: IO ()
main =
  print
    ( {-# SCC "foo" #-}
      ( let fx a = f 3 a
            inner = {-# SCC "bar" #-} (let gy a = g 10 a in map gy l)
         in map fx inner
      )
    )
