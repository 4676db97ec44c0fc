-- Twin of tests/ghc/bank_sim.stg (see README.md): a bank simulation with
-- account records updated in a loop: a CAF list of transactions (read by
-- two top-level functions) folded over a Bank record with foldl; each
-- transaction maps a partial application over the accounts; lazy lets
-- forced in one branch only (fees1, fails1, the fields of mkTx).
data Acct = Acct Int Int Int

data Tx = Deposit Int Int | Withdraw Int Int | Transfer Int Int Int | Interest Int

data Bank = Bank [Acct] Int Int

next :: Int -> Int
next x = (x * 1103515245 + 12345) `rem` 2147483648

balance :: Acct -> Int
balance a = case a of
  Acct _ b _ -> b

txCount :: Acct -> Int
txCount a = case a of
  Acct _ _ c -> c

credit :: Int -> Int -> Acct -> Acct
credit n amt a = case a of
  Acct i b c -> if i == n then let b1 = b + amt; c1 = c + 1 in Acct i b1 c1 else a

debit :: Int -> Int -> Acct -> Acct
debit n amt a = case a of
  Acct i b c -> if i == n then let b2 = b - amt; c2 = c + 1 in Acct i b2 c2 else a

interest :: Int -> Acct -> Acct
interest pct a = case a of
  Acct i b c -> if b > 0 then let gain = b * pct `quot` 1000; b3 = b + gain in Acct i b3 c else a

findBal :: Int -> [Acct] -> Int
findBal n accts = case accts of
  [] -> 0
  (a : more) -> case a of
    Acct i b _ -> if i == n then b else findBal n more

applyTx :: Bank -> Tx -> Bank
applyTx bank tx = case bank of
  Bank accts fails fees -> case tx of
    Deposit n amt -> let cr = credit n amt; accts1 = map cr accts in Bank accts1 fails fees
    Withdraw n amt ->
      let bal = findBal n accts
          fee = amt `quot` 100 + 1
          total = amt + fee
          fees1 = fees + fee
          fails1 = fails + 1
       in if bal >= total
            then let db = debit n total; accts2 = map db accts in Bank accts2 fails fees1
            else Bank accts fails1 fees
    Transfer from to amt ->
      let bal2 = {-# SCC "lookup" #-} findBal from accts
          fails2 = fails + 1
       in if bal2 >= amt
            then
              let db2 = debit from amt
                  cr2 = credit to amt
                  a1 = map db2 accts
                  a2 = map cr2 a1
               in Bank a2 fails fees
            else Bank accts fails2 fees
    Interest pct -> let addI = interest pct; accts3 = map addI accts in Bank accts3 fails fees

mkTx :: Int -> Tx
mkTx x =
  let k = x `quot` 4
      n = k `rem` 8
      m = k `quot` 8
      amt = m `rem` 700
      n2 = m `rem` 7
      pct = n2 + 1
   in case x `rem` 4 of
        0 -> Deposit n amt
        1 -> Withdraw n amt
        2 -> Transfer n n2 amt
        _ -> if n == 0 then Interest pct else Deposit n2 amt

txs :: [Tx]
txs = let seeds = iterate next 99; ss = take 2500 seeds in map mkTx ss

openAll :: Int -> [Acct]
openAll k =
  if k == 8
    then []
    else let k1 = k + 1; rest = openAll k1; start = 1000 + k * 100 in Acct k start 0 : rest

runAll :: Bank
runAll = let accts = openAll 0 in foldl applyTx (Bank accts 0 0) txs

countKinds :: [Int]
countKinds = go txs 0 0
  where
    go :: [Tx] -> Int -> Int -> [Int]
    go ts d w = case ts of
      [] -> [d, w]
      (t : more) -> let d1 = bump isDep t d; w1 = bump isWd t w in go more d1 w1
      where
        bump :: (Tx -> Bool) -> Tx -> Int -> Int
        bump p t c = if p t then c + 1 else c

isDep :: Tx -> Bool
isDep t = case t of
  Deposit _ _ -> True
  _ -> False

isWd :: Tx -> Bool
isWd t = case t of
  Withdraw _ _ -> True
  _ -> False

total :: [Int] -> Int
total xs = foldl plus 0 xs
  where
    plus :: Int -> Int -> Int
    plus a b = a + b

main :: IO ()
main =
  print
    ( let final = {-# SCC "apply" #-} runAll
       in case final of
            Bank accts fails fees ->
              let bals = map balance accts
                  cnts = map txCount accts
                  tb = total bals
                  tc = total cnts
                  kinds = countKinds
                  rest = kinds ++ bals
               in [fails, fees, tb, tc] ++ rest
    )
