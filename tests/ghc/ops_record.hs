-- Twin of tests/ghc/ops_record.stg (see README.md).
data Ops = Ops (Int -> Int) (Int -> Int)

mkOps :: Int -> Ops
mkOps k = let inc y = y + k
              dbl y = y * k
          in Ops inc dbl

useOps :: Ops -> Int -> Int
useOps ops x = case ops of
  Ops f g -> let gx = g x in f gx

adder :: Int -> Int -> Int
adder a = let add b = a + b in add

applyAll :: [Int -> Int] -> Int -> [Int]
applyAll fs x = case fs of
  [] -> []
  f : rest -> let y = f x
                  ys = applyAll rest x
              in y : ys

main :: IO ()
main =
  print
    ( let o2 = mkOps 2
          o5 = mkOps 5
          r1 = useOps o2 10
          r2 = useOps o5 1
          r3 = adder 3 4
          p1 = adder 1
          p2 = adder 2
          rest = applyAll [p1, p2] 100
       in r1 : r2 : r3 : rest
    )
