(* Lazy OCaml twin of bench/programs/queens10.stg and the Prelude functions
   it uses: one [lazy] per STG thunk (k1, prev, cands, safes, cpd, cmd, d1,
   and those of map, filter, concatMap, append and enumFromTo). *)
open Lazylist

let rec enum_from_to a b =
  if a > b then Nil else Cons (Lazy.from_val a, lazy (enum_from_to (a + 1) b))

let rec map f = function
  | Nil -> Nil
  | Cons (y, ys) -> Cons (lazy (f y), lazy (map f (Lazy.force ys)))

let rec filter p = function
  | Nil -> Nil
  | Cons (y, ys) ->
      if p y then Cons (y, lazy (filter p (Lazy.force ys))) else filter p (Lazy.force ys)

let rec append xs ys =
  match xs with
  | Nil -> Lazy.force ys
  | Cons (z, zs) -> Cons (z, lazy (append (Lazy.force zs) ys))

let rec concat_map f = function
  | Nil -> Nil
  | Cons (y, ys) ->
      let fy = lazy (f y) and rest = lazy (concat_map f (Lazy.force ys)) in
      append (Lazy.force fy) rest

let rec length_w n = function Nil -> n | Cons (_, ys) -> length_w (n + 1) (Lazy.force ys)

let rec safe q (d : int Lazy.t) = function
  | Nil -> true
  | Cons (c, cs) ->
      let q' = Lazy.force q and c' = Lazy.force c in
      q' <> c'
      &&
      let cpd = lazy (c' + Lazy.force d) in
      q' <> Lazy.force cpd
      &&
      let cmd = lazy (c' - Lazy.force d) in
      q' <> Lazy.force cmd
      &&
      let d1 = lazy (Lazy.force d + 1) in
      safe q d1 (Lazy.force cs)

let extend n qs =
  let add q = Cons (q, Lazy.from_val qs) and ok q = safe q (Lazy.from_val 1) qs in
  let cands = lazy (enum_from_to 1 n) in
  let safes = lazy (filter ok (Lazy.force cands)) in
  map add (Lazy.force safes)

let rec place n k =
  if k = 0 then Cons (Lazy.from_val Nil, Lazy.from_val Nil)
  else
    let k1 = lazy (k - 1) in
    let prev = lazy (place n (Lazy.force k1)) in
    concat_map (fun qs -> extend n (Lazy.force qs)) (Lazy.force prev)

let () =
  let qs = lazy (place 10 10) in
  print_int (length_w 0 (Lazy.force qs));
  print_newline ()
