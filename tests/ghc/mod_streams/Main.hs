-- Twin of tests/ghc/mod_streams/Main.stg (see tests/ghc/README.md).
import Gen
import Stream

main :: IO ()
main =
  print
    ( let small :: Int -> Bool
          small x = x < 200
          notOne :: Int -> Bool
          notOne x = x /= 1
          odds = filterS isOddG nats
       in let sqs = mapS sq odds
              cs = collatzFrom 27
              tri = scanS plusG 0 nats
              e = zipWithS plusG squaresS fibs
           in let a = let ps = takeWhileS small sqs in sumS ps
                  b = let ws = takeWhileS notOne cs in length ws
                  c = takeWhileS small fibs
                  d = takeS 10 tri
                  f = takeS 8 e
               in [[a, b], c, d, f]
    )
