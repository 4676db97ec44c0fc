{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 x y z = x + z

{-# NOINLINE g #-}
g :: Int -> Int -> Int -> Int -> Int
g a b = if a == 0 then add3 b else let t = run2 0 in add3 t

{-# NOINLINE k #-}
k :: Int -> Int -> Int -> Int -> Int
k a = g a

{-# NOINLINE run2 #-}
run2 :: Int -> Int
run2 n = k n 2 3 4

main :: IO ()
main = print (let r = g 1 7 8 9 in [r])
