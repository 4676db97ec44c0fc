-- Twin of tests/ghc/mod_records/Main.stg (see tests/ghc/README.md).
import Codec
import Pipe

main :: IO ()
main =
  print
    ( let s3 = mkShift 3
          m5 = mkMul 5 39
          s11 = mkShift 11
          xs = upto 0 96
       in let sm = chain s3 m5
              all3 = chainAll [s3, m5, s11]
           in let e1 = encodeAll sm xs
               in let c1 = checksum e1
                      r1 = roundTrip sm xs
                      r2 = roundTrip all3 xs
                      c2 = let e2 = encodeAll all3 xs in checksum e2
                      n =
                        let c0 = mkCounter 0
                            ks = upto 1 50
                         in runCounter c0 ks
                   in [c1, r1, r2, c2, n]
    )
