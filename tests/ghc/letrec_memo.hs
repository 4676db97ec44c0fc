memo :: Int -> Int
memo n =
  let tbl = map look [0 .. n]
      look i = if i == 0 then 1 else tbl !! (i - 1) * 2 + i
   in tbl !! n

sq :: Int -> Int
sq x = x * x

neg :: Int -> Int
neg x = negate x

sel :: Int -> Int
sel n =
  let fn = if n > 0 then sq else neg
      a = {-# SCC "apply" #-} fn n
   in a + fn 1

main :: IO ()
main =
  print
    ( let x = memo 5
          y = memo 3
          z = sel 4
          w = sel (-2)
       in [x, y, z, w]
    )
