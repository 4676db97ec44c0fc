(* Lazy OCaml twin of bench/programs/tak.stg: one [lazy] per STG thunk
   (x1, y1, z1, a, b, c). *)
let rec tak (x : int Lazy.t) (y : int Lazy.t) (z : int Lazy.t) : int =
  if Lazy.force y < Lazy.force x then
    let x1 = lazy (Lazy.force x - 1)
    and y1 = lazy (Lazy.force y - 1)
    and z1 = lazy (Lazy.force z - 1) in
    let a = lazy (tak x1 y z) and b = lazy (tak y1 z x) and c = lazy (tak z1 x y) in
    tak a b c
  else Lazy.force z

let () =
  print_int (tak (Lazy.from_val 24) (Lazy.from_val 16) (Lazy.from_val 8));
  print_newline ()
