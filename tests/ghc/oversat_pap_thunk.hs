{-# NOINLINE add2 #-}
add2 :: Int -> Int -> Int
add2 a b = a + b

{-# NOINLINE f #-}
f :: Int -> Int -> Int -> Int
f k a = if a == 0 then add2 a else let r = g 0 in add2 r

{-# NOINLINE app #-}
app :: (Int -> Int -> Int) -> Int -> Int
app h y = h y 5

{-# NOINLINE g #-}
g :: Int -> Int
g x = let p = f 7 in app p x

main :: IO ()
main = print (let r = f 7 1 5 in [r])
