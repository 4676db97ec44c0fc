(* Lazy OCaml twin of bench/programs/nfib30.stg: one [lazy] per STG thunk
   (n1, n2, r1, r2, s), arguments passed as suspensions like the STG
   program's boxed lazy arguments. *)
let rec nfib (n : int Lazy.t) : int =
  if Lazy.force n < 2 then 1
  else
    let n1 = lazy (Lazy.force n - 1) and n2 = lazy (Lazy.force n - 2) in
    let r1 = lazy (nfib n1) and r2 = lazy (nfib n2) in
    let s = lazy (Lazy.force r1 + Lazy.force r2) in
    Lazy.force s + 1

let () = print_int (nfib (Lazy.from_val 30)); print_newline ()
