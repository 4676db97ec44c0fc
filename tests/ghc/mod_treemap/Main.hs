-- Twin of tests/ghc/mod_treemap/Main.stg (see tests/ghc/README.md).
import Map
import Words

{-# NOINLINE plusC #-}
plusC :: Int -> Int -> Int
plusC a b = a + b

{-# NOINLINE countWords #-}
countWords :: [[Int]] -> Map
countWords ws =
  let add :: Map -> [Int] -> Map
      add m w = let h = hashW w in insertWith plusC h 1 m
   in foldl add Leaf ws

main :: IO ()
main =
  print
    ( let ws = splitW [3, 1, 20, 0, 3, 1, 20, 0, 0, 4, 15, 7, 0, 3, 1, 20, 0, 2, 9, 18, 4, 0, 4, 15, 7, 0, 3, 1, 20, 0, 1, 0]
          tot :: Int -> Int -> Int -> Int
          tot k v acc = acc + v
          catH = hashW [3, 1, 20]
       in let m = countWords ws
           in let a = lookupM catH m
                  b = sizeM m
                  c = foldM tot 0 m
                  l = toListM m []
               in a : b : c : l
    )
