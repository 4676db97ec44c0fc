-- Twin of programs/mergesort.stg (see README.md).
next :: Int -> Int
next r =
  let a = r * 1103
   in let b = a + 12345
       in b `rem` 4096

randoms :: [Int]
randoms = let rs = iterate next 42 in take 40 rs

msort :: [Int] -> [Int]
msort xs = case xs of
  [] -> []
  (x : xt) -> case xt of
    [] -> x : xt
    (_ : _) ->
      let h = let n = length xs in n `quot` 2
       in let front = take h xs
              back = drop h xs
           in let sf = msort front
                  sb = msort back
               in merge sf sb

merge :: [Int] -> [Int] -> [Int]
merge xs ys = case xs of
  [] -> ys
  (x : xt) -> case ys of
    [] -> xs
    (y : yt) ->
      if x <= y
        then let restx = merge xt ys in x : restx
        else let resty = merge xs yt in y : resty

main :: IO ()
main = print (msort randoms)
