-- Twin of tests/ghc/heap/deep_labels/Main.stg: a leak (foldl's lazy
-- accumulator) four functions deep, so that the bands' cost-centre stacks
-- are longer than -L cuts them.
main :: IO ()
main = print (outer 200000)

outer :: Int -> Int
outer n = middle n

middle :: Int -> Int
middle n = inner n

inner :: Int -> Int
inner n = innermost xs
  where
    xs = [1 .. n]

innermost :: [Int] -> Int
innermost xs = foldl (+) 0 xs
