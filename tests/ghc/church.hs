-- Twin of tests/ghc/church.stg (see README.md): Church numerals.
type C = (Int -> Int) -> Int -> Int

{-# NOINLINE czero #-}
czero :: (Int -> Int) -> Int -> Int
czero f x = x

{-# NOINLINE csucc #-}
csucc :: C -> (Int -> Int) -> Int -> Int
csucc n f x = let nfx = n f x in f nfx

{-# NOINLINE cadd #-}
cadd :: C -> C -> (Int -> Int) -> Int -> Int
cadd m n f x = let nfx = n f x in m f nfx

{-# NOINLINE cmul #-}
cmul :: C -> C -> (Int -> Int) -> Int -> Int
cmul m n f = let nf = n f in m nf

{-# NOINLINE fromInt #-}
fromInt :: Int -> (Int -> Int) -> Int -> Int
fromInt k = if k == 0 then czero else let p = fromInt (k - 1) in csucc p

{-# NOINLINE toInt #-}
toInt :: C -> Int
toInt n = let inc :: Int -> Int
              inc k = k + 1
           in n inc 0

{-# NOINLINE two #-}
two :: C
two = let o1 = csucc czero in csucc o1

{-# NOINLINE three #-}
three :: C
three = csucc two

main :: IO ()
main =
  print
    ( let six = cmul two three
          five = cadd two three
          n4 = fromInt 4
       in let a = toInt six
              b = toInt five
              c = {-# SCC "conv" #-} toInt n4
              m = cmul n4 five
           in let d = toInt m
               in [a, b, c, d]
    )
