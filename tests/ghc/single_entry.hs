-- Twin of programs/single_entry.stg (see README.md).
data Box a = Box a

triangle :: Int -> Int
triangle n = sum [1 .. n]

main :: IO ()
main = print (case p of Box b -> {-# SCC "use" #-} ((a + b) + (10 * 6)))
  where
    a = triangle 100
    p = {-# SCC "build" #-} Box (triangle 10)
