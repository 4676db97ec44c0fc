-- Twin of tests/ghc/sorts.stg (see README.md).
next :: Int -> Int
next r = (r * 37 + 11) `rem` 101

qsort :: [Int] -> [Int]
qsort xs = case xs of
  [] -> []
  (p : rest) ->
    let small :: Int -> Bool
        small x = x < p
        large :: Int -> Bool
        large x = x >= p
     in let ls = filter small rest
            gs = filter large rest
         in let sl = qsort ls
                sg = qsort gs
             in sl ++ (p : sg)

ins :: Int -> [Int] -> [Int]
ins x ys = case ys of
  [] -> [x]
  (y : yt) -> if x <= y then x : ys else let r = ins x yt in y : r

isort :: [Int] -> [Int]
isort xs = foldr ins [] xs

isortL :: [Int] -> [Int]
isortL xs =
  let step :: [Int] -> Int -> [Int]
      step acc x = ins x acc
   in foldl step [] xs

main :: IO ()
main =
  print
    ( let rs = iterate next 17
       in let xs = take 30 rs
           in let q = qsort xs
                  i = isort xs
                  l = isortL xs
               in let r = reverse q
                      n = length i
                      s = sum q
                   in let t5 = take 5 r
                          d = drop 27 l
                       in let tl = t5 ++ d
                           in q ++ (n : s : tl)
    )
