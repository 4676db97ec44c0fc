-- Twin of programs/shared_local.stg (see README.md).
sumWith :: (Int -> Int) -> Int -> Int
sumWith h n =
  if n == 0
    then 0
    else
      let n1 = n - 1
          hn = h n
       in let r = sumWith h n1 in hn + r

useA :: (Int -> Int) -> Int
useA h = sumWith h 4

useB :: (Int -> Int) -> Int
useB h = let m = h 6 in m * 2

prog :: Int -> [Int]
prog k =
  let mulk y = y * k
   in let a = useA mulk
          b = useB mulk
       in [a, b]

main :: IO ()
main = print (prog 3)
