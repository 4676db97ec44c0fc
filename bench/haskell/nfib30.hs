-- Twin of bench/programs/nfib30.stg (from tests/ghc/, with the benchmark's parameters).


main :: IO ()
main = print (nfib 30)

nfib :: Int -> Int
nfib n =
  if n < 2
    then 1
    else
      let n1 = n - 1
          n2 = n - 2
       in let r1 = nfib n1
              r2 = nfib n2
           in let s = r1 + r2
               in s + 1
