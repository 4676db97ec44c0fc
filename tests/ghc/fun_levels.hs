-- Twin of tests/ghc/fun_levels.stg (see README.md): functions
-- returning functions returning functions (lvl1: arity 1 -> local f1 of
-- arity 1 -> local f2 of arity 2; stage1 -> stage2 -> local k), applied
-- with all their arguments at once, one at a time through thunks, and
-- partially; partial applications of partial applications (pp = pa 2,
-- pa = add4 1) and the functions of the levels passed to a user foldr
-- and kept in a list applied by applyAll.
{-# NOINLINE add4 #-}
add4 :: Int -> Int -> Int -> Int -> Int
add4 a b c d = a + b + c + d

{-# NOINLINE lvl1 #-}
lvl1 :: Int -> Int -> Int -> Int -> Int
lvl1 a = let f1 :: Int -> Int -> Int -> Int
             f1 b = let f2 :: Int -> Int -> Int
                        f2 c d = a * 1000 + b * 100 + c * 10 + d
                    in f2
         in f1

{-# NOINLINE stage1 #-}
stage1 :: Int -> Int -> Int -> Int
stage1 a = {-# SCC "s1" #-} stage2 (a * 2)

{-# NOINLINE stage2 #-}
stage2 :: Int -> Int -> Int -> Int
stage2 x = let k :: Int -> Int -> Int
               k c d = x + c * d
           in k

{-# NOINLINE myFoldr #-}
myFoldr :: (Int -> Int -> Int) -> Int -> [Int] -> Int
myFoldr f z xs = case xs of
  [] -> z
  y : ys -> let r = myFoldr f z ys in f y r

{-# NOINLINE applyAll #-}
applyAll :: [Int -> Int] -> Int -> Int
applyAll fs x = case fs of
  [] -> x
  f : rest -> let y = f x in applyAll rest y

main :: IO ()
main =
  print
    ( let r1 = lvl1 1 2 3 4
          h1 = lvl1 5
          h2 = h1 6
          h3 = h2 7
          r2 = h3 8 + h2 1 2
          r3 = stage1 3 4 5
          s = stage1 2
          r4 = s 10 10
          pa = add4 1
          pp = {-# SCC "pp" #-} pa 2
          r5 = myFoldr pp 0 [1, 2, 3]
          r6 = myFoldr h2 0 [1, 2]
          r7 = myFoldr s 1 [3, 4]
          g1 = lvl1 9 8 7
          g2 = pp 100
          r8 = applyAll [h3, g1, g2] 1
       in [r1, r2, r3, r4, r5, r6, r7, r8]
    )
