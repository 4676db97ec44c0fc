{-# NOINLINE add2 #-}
add2 :: Int -> Int -> Int
add2 a b = a + b

{-# NOINLINE f #-}
f :: Int -> Int -> Int
f a = if a == 0 then add2 a else let r = g 0 in add2 r

{-# NOINLINE g #-}
g :: Int -> Int
g x = f x 5

main :: IO ()
main = print (let r = f 1 5 in [r])
