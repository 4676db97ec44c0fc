-- Twin of tests/ghc/bank_queue.stg (see README.md): a textbook bank with
-- record syntax. Accounts and the bank are records: GHC gives the field
-- selectors (accId, balance, history, accounts, ...) cost centres of
-- their own, as the STG's selector functions get; record updates
-- (`acc {balance = balance acc + amt}`) are cases that call the selectors
-- the user wrote. Transactions wait in a two-list queue (pop reverses the
-- back list), are applied by a loop over the queue and by a point-free
-- `foldl`, with where-bound helpers `ok`/`reject` and a where-bound
-- partial application; a Maybe-returning lookup; a single-teller
-- simulation of customers (records) with a user scanl; scc "queue" around
-- the queue run. The output is the records' fields, not the records:
-- GHC's derived Show prints a record with its field names
-- (`Bank {accounts = ...}`), stg-run positionally.
import Prelude hiding (scanl)

data Account = Account
  { accId :: Int,
    balance :: Int,
    history :: [Int]
  }
  deriving (Show)

data Bank = Bank
  { accounts :: [Account],
    rejected :: Int,
    processed :: Int
  }
  deriving (Show)

data Tx = Deposit Int Int | Withdraw Int Int | Transfer Int Int Int deriving (Show)

data Queue = Queue [Tx] [Tx]

data Popped = Empty | Popped Tx Queue

data Cust = Cust
  { arrival :: Int,
    service :: Int
  }

data Out = Out [Int] [[Int]] Int Int [Int] [[Int]] Int Int Int [Int] [Int] Int deriving (Show)

{-# NOINLINE deposit #-}
deposit :: Int -> Account -> Account
deposit amt acc = acc {balance = balance acc + amt, history = amt : history acc}

{-# NOINLINE withdraw #-}
withdraw :: Int -> Account -> Account
withdraw amt acc = acc {balance = balance acc - amt, history = negate amt : history acc}

{-# NOINLINE findAcc #-}
findAcc :: Int -> [Account] -> Maybe Account
findAcc _ [] = Nothing
findAcc n (a : as)
  | accId a == n = Just a
  | otherwise = findAcc n as

{-# NOINLINE updateAcc #-}
updateAcc :: Int -> (Account -> Account) -> [Account] -> [Account]
updateAcc n f = map upd
  where
    upd :: Account -> Account
    upd a
      | accId a == n = f a
      | otherwise = a

{-# NOINLINE push #-}
push :: Tx -> Queue -> Queue
push t (Queue f b) = Queue f (t : b)

{-# NOINLINE pop #-}
pop :: Queue -> Popped
pop (Queue [] []) = Empty
pop (Queue [] b) = pop (Queue (reverse b) [])
pop (Queue (x : f) b) = Popped x (Queue f b)

{-# NOINLINE apply #-}
apply :: Bank -> Tx -> Bank
apply bank tx = case tx of
  Deposit n amt -> let dep = deposit amt in ok (updateAcc n dep accts)
  Withdraw n amt -> case findAcc n accts of
    Just a
      | balance a >= amt -> let wd = withdraw amt in ok (updateAcc n wd accts)
    _ -> reject
  Transfer from to amt -> case findAcc from accts of
    Just a
      | balance a >= amt ->
          let out = withdraw amt
              into = deposit amt
              accts1 = updateAcc from out accts
           in ok (updateAcc to into accts1)
    _ -> reject
  where
    accts = accounts bank
    ok :: [Account] -> Bank
    ok as = bank {accounts = as, processed = processed bank + 1}
    reject = bank {rejected = rejected bank + 1, processed = processed bank + 1}

{-# NOINLINE runQueue #-}
runQueue :: Bank -> Queue -> Bank
runQueue bank q = case pop q of
  Empty -> bank
  Popped tx q' -> runQueue (apply bank tx) q'

{-# NOINLINE applyAll #-}
applyAll :: Bank -> [Tx] -> Bank
applyAll = foldl apply

{-# NOINLINE mkTx #-}
mkTx :: Int -> Tx
mkTx r
  | k == 0 = Deposit who amt
  | k == 1 = Withdraw who amt
  | otherwise = Transfer who other amt
  where
    k = r `mod` 3
    who = (r `div` 3) `mod` 5
    other = (r `div` 15) `mod` 5
    amt = (r `div` 75) `mod` 200

{-# NOINLINE next #-}
next :: Int -> Int
next r = (r * 1103515245 + 12345) `mod` 2147483648

{-# NOINLINE newAccount #-}
newAccount :: Int -> Account
newAccount n = Account {accId = n, balance = 100, history = []}

{-# NOINLINE total #-}
total :: Bank -> Int
total b = sum (map balance (accounts b))

{-# NOINLINE scanl #-}
scanl :: (Int -> Cust -> Int) -> Int -> [Cust] -> [Int]
scanl f q ls = q : rest
  where
    rest = case ls of
      [] -> []
      x : xs -> scanl f (f q x) xs

{-# NOINLINE finishTimes #-}
finishTimes :: [Cust] -> [Int]
finishTimes = scanl serve 0
  where
    serve :: Int -> Cust -> Int
    serve free c
      | arrival c > free = arrival c + service c
      | otherwise = free + service c

{-# NOINLINE mkCust #-}
mkCust :: Int -> Int -> Cust
mkCust i r = Cust {arrival = i * 4, service = 1 + r `mod` 7}

main :: IO ()
main = print $ Out balQ histQ rejQ procQ balF histF rejF procF tot finishes waits longest
  where
    seeds = take 60 (iterate next 11)
    txs = map mkTx seeds
    bank0 = Bank {accounts = map newAccount [0 .. 4], rejected = 0, processed = 0}
    queue = foldr push (Queue [] []) txs
    viaQueue = {-# SCC "queue" #-} runQueue bank0 queue
    viaFold = applyAll bank0 txs
    tot = total viaFold
    balQ = map balance (accounts viaQueue)
    histQ = map history (accounts viaQueue)
    rejQ = rejected viaQueue
    procQ = processed viaQueue
    balF = map balance (accounts viaFold)
    histF = map history (accounts viaFold)
    rejF = rejected viaFold
    procF = processed viaFold
    custs = zipWith mkCust [1 .. 40] seeds
    finishes = finishTimes custs
    waits = zipWith wait custs (tail finishes)
    wait :: Cust -> Int -> Int
    wait c f = f - arrival c - service c
    longest = foldr max 0 waits
