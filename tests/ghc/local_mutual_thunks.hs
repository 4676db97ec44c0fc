parity :: Int -> Int
parity n =
  let ev k = if k == 0 then 1 else let r = od (k - 1) in r + 0
      od k = if k == 0 then 0 else let r = ev (k - 1) in r
   in ev n

main :: IO ()
main =
  print
    ( let a = parity 6
          b = parity 3
       in [a, b]
    )
