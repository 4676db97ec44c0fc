-- Twin of programs/single_entry.stg (see README.md). Haskell has no \s
-- closures and no unboxed thunks: a, p, b, ab are ordinary thunks and t is
-- a boxed Int.
data Box a = Box a

triangle :: Int -> Int
triangle n = let l = enumFromTo 1 n in sum l

main :: IO ()
main =
  print
    ( let a = triangle 100
          p = {-# SCC "build" #-} (let b = triangle 10 in Box b)
          t = 10 * 6 :: Int
       in case p of
            Box b -> {-# SCC "use" #-} (let ab = a + b in case t of n -> ab + n)
    )
