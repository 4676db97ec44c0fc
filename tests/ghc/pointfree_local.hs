-- Twin of tests/ghc/pointfree_local.stg (see README.md).
dbl :: Int -> Int
dbl x = x * 2

inc :: Int -> Int
inc x = x + 1

incDbl :: Int -> Int
incDbl = inc . dbl

parity :: Int -> Int
parity n =
  let ev k = if k == 0 then 1 else let k1 = k - 1 in od k1
      od k = if k == 0 then 0 else let k1 = k - 1 in ev k1
   in ev n

powers :: Int -> [Int]
powers n = let xs = let t = map dbl xs in 1 : t
           in take n xs

main :: IO ()
main =
  print
    ( let a = incDbl 5
          b = incDbl 10
          c = parity 7
          d = parity 4
          ps = powers 5
       in a : b : c : d : ps
    )
