(* Lazy OCaml twin of bench/programs/primes2000.stg (the sieve over an
   infinite list; no strict twin: it needs the laziness): one [lazy] per
   STG thunk (rest, srest, nats, primes, and those of filter and
   enumFrom). *)
open Lazylist

let rec enum_from a = Cons (Lazy.from_val a, lazy (enum_from (a + 1)))

let rec filter p = function
  | Nil -> Nil
  | Cons (y, ys) ->
      if p y then Cons (y, lazy (filter p (Lazy.force ys))) else filter p (Lazy.force ys)

let not_divides p x = Lazy.force x mod Lazy.force p <> 0

let rec sieve = function
  | Nil -> Nil
  | Cons (p, ps) ->
      let rest = lazy (filter (not_divides p) (Lazy.force ps)) in
      let srest = lazy (sieve (Lazy.force rest)) in
      Cons (p, srest)

let nats = lazy (enum_from 2)
let primes = lazy (sieve (Lazy.force nats))

let rec index xs n =
  match xs with
  | Nil -> failwith "index"
  | Cons (y, ys) -> if n = 0 then Lazy.force y else index (Lazy.force ys) (n - 1)

let () = print_int (index (Lazy.force primes) 1999); print_newline ()
