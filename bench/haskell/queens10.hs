-- Twin of bench/programs/queens10.stg (from tests/ghc/, with the benchmark's parameters).
-- Twin of programs/queens.stg (see README.md).
main :: IO ()
main = print (length (queens 10))

queens :: Int -> [[Int]]
queens n = place n n

place :: Int -> Int -> [[Int]]
place n k = case k of
  0 -> [[]]
  _ ->
    let k1 = k - 1
        ext qs = extend n qs
     in let prev = place n k1
         in concatMap ext prev

extend :: Int -> [Int] -> [[Int]]
extend n qs =
  let add q = q : qs
      ok q = safe q 1 qs
      cands = [1 .. n]
   in let safes = filter ok cands
       in map add safes

safe :: Int -> Int -> [Int] -> Bool
safe q d qs = case qs of
  [] -> True
  (c : cs) ->
    if q /= c
      then
        let cpd = c + d
         in if q /= cpd
              then
                let cmd = c - d
                 in if q /= cmd
                      then let d1 = d + 1 in safe q d1 cs
                      else False
              else False
      else False
