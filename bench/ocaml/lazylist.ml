(* Lazy lists for the lazy OCaml twins: the shape of the Prelude's lists,
   where a cons cell's head and tail are each a value or a thunk. *)
type 'a llist = Nil | Cons of 'a Lazy.t * 'a llist Lazy.t
