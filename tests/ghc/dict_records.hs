-- Twin of tests/ghc/dict_records.stg (see README.md): dictionary passing.
data NumD = NumD (Int -> Int -> Int) (Int -> Int -> Int) Int
data RingD = RingD NumD (Int -> Int)

{-# NOINLINE timesI #-}
timesI :: Int -> Int -> Int
timesI x y = x * y

-- method selectors (arity 1, return the method)
{-# NOINLINE plusD #-}
plusD :: NumD -> Int -> Int -> Int
plusD d = case d of NumD p t z -> p

{-# NOINLINE timesD #-}
timesD :: NumD -> Int -> Int -> Int
timesD d = case d of NumD p t z -> t

{-# NOINLINE zeroD #-}
zeroD :: NumD -> Int
zeroD d = case d of NumD p t z -> z

{-# NOINLINE ringNum #-}
ringNum :: RingD -> NumD
ringNum r = case r of RingD d n -> d

{-# NOINLINE negR #-}
negR :: RingD -> Int -> Int
negR r = case r of RingD d n -> n

-- instances
{-# NOINLINE mkMod #-}
mkMod :: Int -> NumD
mkMod m = let add :: Int -> Int -> Int
              add x y = (x + y) `rem` m
              mul :: Int -> Int -> Int
              mul x y = (x * y) `rem` m
          in NumD add mul 0

{-# NOINLINE mkStd #-}
mkStd :: Int -> NumD
mkStd k = let add :: Int -> Int -> Int
              add x y = x + y + k
              mul :: Int -> Int -> Int
              mul x y = timesI x y
          in NumD add mul 0

-- an instance built from another one
{-# NOINLINE mkScaled #-}
mkScaled :: NumD -> Int -> NumD
mkScaled d k = let add :: Int -> Int -> Int
                   add x y = plusD d x y
                   mul :: Int -> Int -> Int
                   mul x y = let xy = timesD d x y in timesD d xy k
               in NumD add mul 0

-- a "subclass" dictionary holding its superclass
{-# NOINLINE mkRing #-}
mkRing :: NumD -> Int -> RingD
mkRing d m = let neg :: Int -> Int
                 neg x = m - x
             in RingD d neg

-- generic functions
{-# NOINLINE sumWith #-}
sumWith :: NumD -> [Int] -> Int
sumWith d xs = case xs of
  [] -> zeroD d
  y : ys -> let r = sumWith d ys in plusD d y r

{-# NOINLINE square #-}
square :: NumD -> Int -> Int
square d x = timesD d x x

{-# NOINLINE sumSq #-}
sumSq :: NumD -> [Int] -> Int
sumSq d xs = let sq = square d
                 ys = map sq xs
             in sumWith d ys

{-# NOINLINE diffR #-}
diffR :: RingD -> Int -> Int -> Int
diffR r x y = let d = ringNum r
                  ny = negR r y
              in plusD d x ny

{-# NOINLINE polyR #-}
polyR :: RingD -> Int -> Int
polyR r x = let d = ringNum r
                x2 = square d x
                nx = negR r x
            in plusD d x2 nx

main :: IO ()
main =
  print
    ( let m7 = mkMod 7
          s = mkStd 100
          sc = mkScaled m7 3
          r7 = mkRing m7 7
          a = sumWith m7 [3, 4, 5, 6]
          b = sumWith s [3, 4, 5, 6]
          c = square sc 5
          e = sumSq s [1, 2, 3]
          f = diffR r7 2 5
          g = polyR r7 4
       in [a, b, c, e, f, g]
    )
