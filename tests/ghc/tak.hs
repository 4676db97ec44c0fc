-- Twin of programs/tak.stg (see README.md).
main :: IO ()
main = print (tak 12 8 4)

tak :: Int -> Int -> Int -> Int
tak x y z = if y < x then tak (tak (x - 1) y z) (tak (y - 1) z x) (tak (z - 1) x y) else z
