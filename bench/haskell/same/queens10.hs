{-# LANGUAGE MagicHash #-}
-- Twin of bench/programs/queens10.stg with its Prelude functions from
-- StgPrelude.hs (bytecode under GHCi), not from base.
import GHC.Exts (Int (I#))
import StgPrelude
import Prelude (IO, print)

one, ten :: Int
one = I# 1#
ten = I# 10#

queens :: Int -> [[Int]]
queens n = place n n

place :: Int -> Int -> [[Int]]
place n k@(I# k') = case k' of
  0# -> [[]]
  _ ->
    let k1 = minusInt k one
        ext qs = extend n qs
     in let prev = place n k1
         in concatMap ext prev

extend :: Int -> [Int] -> [[Int]]
extend n qs =
  let add q = q : qs
      ok q = safe q one qs
      cands = enumFromTo one n
   in let safes = filter ok cands
       in map add safes

safe :: Int -> Int -> [Int] -> Bool
safe q d qs = case qs of
  [] -> True
  c : cs -> case neInt q c of
    False -> False
    True ->
      let cpd = plusInt c d
       in case neInt q cpd of
            False -> False
            True ->
              let cmd = minusInt c d
               in case neInt q cmd of
                    False -> False
                    True -> let d1 = plusInt d one in safe q d1 cs

main :: IO ()
main = print (length (queens ten))
