-- Twin of tests/ghc/parity_paps.stg (see README.md).
-- Even/odd by mutual recursion through functions passed as arguments:
-- evenK and oddK take the continuation to call on n - 1. Tied by top-level
-- functions (evenF/oddF), by `tie`, which passes itself partially applied
-- (a CAF isEven2 = tie evenK oddK, and a saturated call), by a local letrec
-- of two partial-application thunks that capture each other, and by a
-- partial application under an SCC passed to filter; also through an
-- over-saturated call of a function returning one of the two.
evenK :: (Int -> Bool) -> Int -> Bool
evenK k n = if n == 0 then True else k (n - 1)

oddK :: (Int -> Bool) -> Int -> Bool
oddK k n = if n == 0 then False else k (n - 1)

evenF :: Int -> Bool
evenF n = evenK oddF n

oddF :: Int -> Bool
oddF n = oddK evenF n

tie :: ((Int -> Bool) -> Int -> Bool) -> ((Int -> Bool) -> Int -> Bool) -> Int -> Bool
tie f g n = let p = tie g f in f p n

isEven2 :: Int -> Bool
isEven2 = tie evenK oddK

isOdd2 :: Int -> Bool
isOdd2 n = tie oddK evenK n

parityL :: Int -> Int
parityL m =
  let ev :: Int -> Bool
      ev = evenK od
      od :: Int -> Bool
      od = oddK ev
   in if ev m then 0 else 1

countEvens :: [Int] -> Int
countEvens xs =
  let p :: Int -> Bool
      p = {-# SCC "evp" #-} tie evenK oddK
   in length (filter p xs)

pick :: Bool -> (Int -> Bool) -> Int -> Bool
pick b = if b then evenK else oddK

b2i :: Bool -> Int
b2i b = if b then 1 else 0

main :: IO ()
main =
  print
    ( let r1 = b2i (evenF 7)
          r2 = b2i (isEven2 10)
          r3 = b2i (isEven2 5)
          r4 = b2i (isOdd2 7)
          r5 = parityL 9
          xs = [1 .. 12]
          r6 = countEvens xs
          r7 = b2i (pick True oddF 6)
          r8 = {-# SCC "pk" #-} b2i (pick False evenF 3)
       in [r1, r2, r3, r4, r5, r6, r7, r8]
    )
