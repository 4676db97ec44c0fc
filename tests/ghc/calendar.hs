-- Twin of tests/ghc/calendar.stg (see README.md): proleptic Gregorian
-- dates on Int with negative years and days (days before 1970-01-01):
-- daysFromCivil and civilFromDays with div/mod (floor) where the sign
-- matters and quot/rem where it does not, weekday by mod against rem on
-- negative days, a table of div/mod/quot/rem over negative operands, a
-- strict loop (seq) and a lazy foldl accumulator, a local loop with a
-- lazy counter, a CAF table of 201 year starts differenced by zipWith,
-- and a round trip over 198 days from -800000 to 800000.
data Date = Date Int Int Int

{-# NOINLINE daysFromCivil #-}
daysFromCivil :: Int -> Int -> Int -> Int
daysFromCivil y m d =
  let y1 = if m <= 2 then y - 1 else y
      era = y1 `div` 400
      yoe = y1 - era * 400
      mp = if m > 2 then m - 3 else m + 9
      doy = (153 * mp + 2) `quot` 5 + d - 1
      doe = yoe * 365 + yoe `quot` 4 - yoe `quot` 100 + doy
   in era * 146097 + doe - 719468

{-# NOINLINE civilFromDays #-}
civilFromDays :: Int -> Date
civilFromDays z0 =
  let z = z0 + 719468
      era = z `div` 146097
      doe = z - era * 146097
      yoe = (doe - doe `quot` 1460 + doe `quot` 36524 - doe `quot` 146096) `quot` 365
      doy = doe - (365 * yoe + yoe `quot` 4 - yoe `quot` 100)
      mp = (5 * doy + 2) `quot` 153
      d = doy - (153 * mp + 2) `quot` 5 + 1
      m = if mp < 10 then mp + 3 else mp - 9
      y = yoe + era * 400
      y2 = if m <= 2 then y + 1 else y
   in Date y2 m d

{-# NOINLINE weekday #-}
weekday :: Int -> Int
weekday z = (z + 4) `mod` 7

{-# NOINLINE weekdayQ #-}
weekdayQ :: Int -> Int
weekdayQ z = (z + 4) `rem` 7

{-# NOINLINE isLeap #-}
isLeap :: Int -> Bool
isLeap y = y `mod` 4 == 0 && (y `mod` 100 /= 0 || y `mod` 400 == 0)

{-# NOINLINE fridays13 #-}
fridays13 :: Int -> Int
fridays13 y = go 1 0
  where
    go :: Int -> Int -> Int
    go m c =
      if m > 12
        then c
        else
          let z = daysFromCivil y m 13
              c1 = if weekday z == 5 then c + 1 else c
           in go (m + 1) c1

{-# NOINLINE countF13 #-}
countF13 :: [Int] -> Int
countF13 years = foldl step 0 years
  where
    step :: Int -> Int -> Int
    step c y = c + fridays13 y

{-# NOINLINE monthStarts #-}
monthStarts :: Int -> Int -> Int -> Int
monthStarts y m acc =
  if m > 12
    then acc
    else
      let w = weekday (daysFromCivil y m 1)
          acc1 = acc * 3 `rem` 1000003 + w
       in acc1 `seq` monthStarts y (m + 1) acc1

{-# NOINLINE weekdaySum #-}
weekdaySum :: Int -> Int -> Int -> Int
weekdaySum y hi acc =
  if y > hi
    then acc
    else
      let acc1 = monthStarts y 1 acc
       in acc1 `seq` weekdaySum (y + 1) hi acc1

{-# NOINLINE dmTable #-}
dmTable :: [Int] -> [Int] -> Int
dmTable as bs = let cm = concatMap row as in sum cm
  where
    cell :: Int -> Int -> Int
    cell a b = (a `div` b) * 1000 + (a `mod` b) * 100 + (a `quot` b) * 10 + a `rem` b
    row :: Int -> [Int]
    row a = let ca = cell a in map ca bs

{-# NOINLINE stepList #-}
stepList :: Int -> Int -> Int -> [Int]
stepList lo st hi =
  if lo > hi
    then []
    else let nx = lo + st; rest = stepList nx st hi in lo : rest

{-# NOINLINE countBad #-}
countBad :: [Int] -> Int
countBad zs = case zs of
  [] -> 0
  z : rest ->
    let back = case civilFromDays z of
          Date y m d -> daysFromCivil y m d
        n = countBad rest
     in if back == z then n else n + 1

{-# NOINLINE jan1 #-}
jan1 :: Int -> Int
jan1 y = daysFromCivil y 1 1

{-# NOINLINE yearStarts #-}
yearStarts :: [Int]
yearStarts = let ys = [-100 .. 100] in map jan1 ys

{-# NOINLINE leapCount #-}
leapCount :: [Int] -> Int
leapCount ys = case ys of
  [] -> 0
  y : rest -> if isLeap y then 1 + leapCount rest else leapCount rest

main :: IO ()
main =
  print
    ( let dm = let as = [-7 .. 7] in dmTable as [-3, -2, 2, 3]
          wd = weekdaySum (-10) 10 0
          f13 = let yrs = [1995 .. 2015] in countF13 yrs
          zs = stepList (-800000) 8111 800000
          rt = countBad zs
          ns = [-10 .. -1]
          neg = map weekday ns
          negQ = map weekdayQ ns
          tl = tail yearStarts
          lens = zipWith (-) tl yearStarts
          is366 :: Int -> Bool
          is366 x = x == 366
          big = filter is366 lens
          leaps = length big
          lc = let yr2 = [-100 .. 99] in leapCount yr2
          total = sum lens
          dt = civilFromDays (-1)
          dd = case dt of
            Date y m d -> y * 10000 + m * 100 + d
          old = civilFromDays (-719468)
          od = case old of
            Date y m d -> y * 10000 + m * 100 + d
       in concat [[dm, wd, f13, rt, leaps, lc, total, dd, od], neg, negQ]
    )
