-- Twin of programs/queens.stg (see README.md).
main :: IO ()
main = print (queens 6)

queens :: Int -> [[Int]]
queens n = place n n

place :: Int -> Int -> [[Int]]
place n k = if k == 0 then [[]] else concatMap (\qs -> extend n qs) (place n (k - 1))

extend :: Int -> [Int] -> [[Int]]
extend n qs = map (\q -> q : qs) (filter (\q -> safe q 1 qs) [1 .. n])

safe :: Int -> Int -> [Int] -> Bool
safe q d qs = case qs of
  [] -> True
  (c : cs) -> q /= c && q /= c + d && q /= c - d && safe q (d + 1) cs
