-- Heap twin of programs/mean_lazy.stg, 50,000 elements (see ../../README.md).
mean :: [Int] -> Int
mean = go 0 0
  where
    go :: Int -> Int -> [Int] -> Int
    go s n [] = s `div` n
    go s n (x : xs) = go (s + x) (n + 1) xs

main :: IO ()
main = print (mean [1 .. 50000])
