-- Twin of programs/no_match.stg (see README.md). Unbuffered, so that what
-- print produced before the exception reaches stdout, as in stg-run.
import System.IO

main :: IO ()
main = do
  hSetBuffering stdout NoBuffering
  print (map head [[1], [2], [] :: [Int]])
