(* Strict OCaml twin of bench/programs/nfib30.stg: unboxed ints, no thunks. *)
let rec nfib n = if n < 2 then 1 else nfib (n - 1) + nfib (n - 2) + 1

let () = print_int (nfib 30); print_newline ()
