//! Retainer sets (`--heap-profile=retainer`, GHC's `-hr`): for each live
//! closure, the set of retainers that reach it, computed right after a
//! collection by a traversal from the machine's roots.
//!
//! GHC's definition (rts/RetainerProfile.c): a *retainer* is a closure of
//! a kind that holds on to data on someone's behalf (in stg-run a thunk,
//! which the caller of [`compute`] recognises), named by the cost centre
//! (stack) that built it; constructors, functions and partial
//! applications are not retainers. A closure's retainer set is the set of
//! retainers `r` with a path from `r` to it that passes through no other
//! retainer; the roots (the stacks, the registers and the globals) play
//! the part of GHC's thread, the retainer [`SYSTEM`]. So a retainer's
//! children are retained by it, and a closure that is not a retainer
//! passes on to its children the retainers that reach it.
//!
//! The traversal is GHC's "propagate once per (closure, retainer)": a
//! closure reached by a retainer already in its set stops the walk there,
//! and a retainer's children are visited once, when the retainer is first
//! reached. Sets are interned, with a cache of "set plus one retainer", so
//! that each closure holds one number. The result is a function of the
//! graph alone, whatever the order of the roots or of the work list.
//!
//! Memory: one `u32` per heap word (read at a closure's address), the
//! work list and the interned sets, all outside the heap's counted words
//! and allocated only when a retainer profile is asked for. [`compute`]
//! fails with [`TooBig`] rather than pass the bound it is given, and
//! decides by what does not depend on the order of the roots (which the
//! two engines give in different orders, over different heap layouts):
//! the table and the sets closures have ended with, in this census and
//! the ones before. What does depend on it, the work list and the sets
//! one traversal makes on the way (kept apart, and dropped after it), may
//! take as much again; only past that (twice the bound in all) does the
//! traversal stop early.

use std::collections::HashMap;

use super::{Addr, Heap, Info, Roots, Tag, Value};
use crate::cli::memory::{fallibly, zeroed_u32s};

/// The retainer of everything the roots point at directly: GHC's thread
/// (its TSO, built under `CCS_SYSTEM`), printed `SYSTEM`.
pub const SYSTEM: u32 = u32::MAX;

/// An interned retainer set: 0 is the empty set.
pub type SetId = u32;

/// The traversal's side memory would pass its bound, or the system would
/// not give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooBig {
    /// Bytes the traversal needed when it stopped (at least).
    pub needed: u64,
    /// The bound it was given.
    pub limit: u64,
    /// The system refused the memory, under the bound (`ulimit -v`).
    pub refused: bool,
}

/// Retainer sets interned across censuses: a set's number stays the same
/// for the whole run, so that it can name a band.
#[derive(Debug)]
pub struct RetainerSets {
    /// The sets' retainers, each sorted by number; set 0 is empty.
    sets: Vec<Vec<u32>>,
    index: HashMap<Vec<u32>, SetId>,
    /// `(set, retainer) -> set with the retainer added`.
    plus: HashMap<(SetId, u32), SetId>,
    /// Elements held by `sets` in all.
    elements: usize,
}

impl Default for RetainerSets {
    fn default() -> RetainerSets {
        let mut index = HashMap::new();
        index.insert(Vec::new(), 0);
        RetainerSets {
            sets: vec![Vec::new()],
            index,
            plus: HashMap::new(),
            elements: 0,
        }
    }
}

impl RetainerSets {
    /// The retainers of set `s`, sorted by number.
    pub fn members(&self, s: SetId) -> &[u32] {
        self.sets.get(s as usize).map_or(&[], Vec::as_slice)
    }

    fn contains(&self, s: SetId, r: u32) -> bool {
        self.members(s).binary_search(&r).is_ok()
    }

    /// The set of `members` (sorted, no repeats), interned.
    fn intern(&mut self, members: &[u32]) -> SetId {
        if let Some(&t) = self.index.get(members) {
            return t;
        }
        let t = self.sets.len() as SetId;
        self.elements += members.len();
        self.sets.push(members.to_vec());
        self.index.insert(members.to_vec(), t);
        t
    }

    /// The set `s` with `r` added (interned).
    fn plus(&mut self, s: SetId, r: u32) -> SetId {
        if let Some(&t) = self.plus.get(&(s, r)) {
            return t;
        }
        let mut members = self.members(s).to_vec();
        if let Err(i) = members.binary_search(&r) {
            members.insert(i, r);
        }
        let t = self.intern(&members);
        self.plus.insert((s, r), t);
        t
    }

    /// Bytes the interned sets take, roughly (each element is held twice,
    /// in `sets` and as a key of `index`; each table entry a few words).
    fn bytes(&self) -> u64 {
        (self.elements as u64) * 8 + (self.sets.len() as u64) * 64 + (self.plus.len() as u64) * 32
    }
}

/// The retainer set of each live closure, by address.
#[derive(Debug)]
pub struct Retained {
    /// The set of each address, as the traversal made it.
    of: Vec<SetId>,
    /// Each set the traversal made, as interned for the run (0 for those
    /// no closure ended with).
    kept_as: Vec<SetId>,
}

impl Retained {
    /// The set of the closure at `a` (0, the empty set, for a closure no
    /// root reaches).
    pub fn set_of(&self, a: Addr) -> SetId {
        let made = self.of.get(a as usize).copied().unwrap_or(0);
        self.kept_as.get(made as usize).copied().unwrap_or(0)
    }
}

/// One entry of the work list: a closure and a retainer that reaches it.
type Work = (Addr, u32);

/// Computes the retainer set of every closure the roots reach (call it
/// right after a collection). `retainer_of` says whether a closure is a
/// retainer, and which (its cost centre or stack): it must never return
/// [`SYSTEM`]. The sets closures end with are interned in `sets`.
///
/// The bound: the table and `sets` must fit in `limit` bytes, or the
/// census fails with [`TooBig`]; that is a function of the heap's live
/// graph alone, so both engines decide alike. While it runs, the
/// traversal's whole side memory (with the work list and the sets it makes
/// on the way, which depend on the order of the roots) is kept under twice
/// `limit`: past that it stops, with [`TooBig`] too.
pub fn compute(
    heap: &Heap,
    roots: &mut dyn Roots,
    sets: &mut RetainerSets,
    retainer_of: &mut dyn FnMut(Addr, Info, u32) -> Option<u32>,
    limit: u64,
) -> Result<Retained, TooBig> {
    let words = heap.addr_end();
    let table = words as u64 * 4;
    let too_big = |needed: u64| TooBig {
        needed,
        limit,
        refused: false,
    };
    let refused = |needed: u64| TooBig {
        needed,
        limit,
        refused: true,
    };
    // The table and the sets kept from the censuses before.
    let kept = table + sets.bytes();
    if kept > limit {
        return Err(too_big(kept));
    }
    // What the traversal may hold while it runs.
    let hard = limit.saturating_mul(2);
    // The sets of this traversal, as it makes them.
    let mut made = RetainerSets::default();
    // What grows with the heap is reserved so that the system's refusal
    // (under `ulimit -v`) stops the census, not the process.
    let Some(mut of) = zeroed_u32s(words) else {
        return Err(refused(table));
    };
    let mut holders: Vec<u64> = Vec::new();
    let mut work: Vec<Work> = Vec::new();
    let work_bytes = |w: &Vec<Work>| w.capacity() as u64 * std::mem::size_of::<Work>() as u64;
    let mut failed = None;
    roots.visit_roots(&mut |vs: &mut [Value]| {
        if failed.is_some() {
            return;
        }
        if fallibly(|| work.try_reserve(vs.len())).is_err() {
            failed = Some(refused(kept + work_bytes(&work) * 2));
            return;
        }
        for v in vs.iter() {
            if let Value::Ptr(a) = *v {
                work.push((a, SYSTEM));
            }
        }
        let needed = kept + work_bytes(&work);
        if needed > hard {
            failed = Some(too_big(needed));
        }
    });
    if let Some(failed) = failed {
        return Err(failed);
    }
    let mut next_look = 1024;
    while let Some((a, r)) = work.pop() {
        let Some((a, info)) = heap.deref_info(a) else {
            continue;
        };
        if matches!(info.tag, Tag::Ind | Tag::Forward) {
            continue;
        }
        let Some(slot) = of.get_mut(a as usize) else {
            continue;
        };
        let before = *slot;
        if made.contains(before, r) {
            continue;
        }
        let now = made.plus(before, r);
        *slot = now;
        // How many closures hold each set now (the sets they end with are
        // those still held): counted as they change, so that the table
        // need not be read whole.
        if holders.len() <= now as usize {
            let more = made.sets.len() - holders.len();
            if fallibly(|| holders.try_reserve(more)).is_err() {
                return Err(refused(kept + work_bytes(&work) + made.bytes()));
            }
            holders.resize(made.sets.len(), 0);
        }
        holders[before as usize] -= u64::from(before != 0);
        holders[now as usize] += 1;
        let child = match retainer_of(a, info, heap.cc(a)) {
            // A retainer's children were visited when it was first reached.
            Some(_) if before != 0 => continue,
            Some(own) => own,
            None => r,
        };
        let had = work.capacity();
        let fields = info.size() - 2;
        if work.capacity() - work.len() < fields && fallibly(|| work.try_reserve(fields)).is_err() {
            return Err(refused(kept + work_bytes(&work) * 2 + made.bytes()));
        }
        for i in 0..fields {
            if let Value::Ptr(p) = heap.payload(a, i) {
                work.push((p, child));
            }
        }
        // The side memory grows when the work list reallocates and when
        // sets are interned: look at it then (every 1,024 new entries of
        // the cache of sets).
        if work.capacity() != had || made.plus.len() >= next_look {
            next_look = made.plus.len() + 1024;
            let needed = kept + work_bytes(&work) + made.bytes();
            if needed > hard {
                return Err(too_big(needed));
            }
        }
    }
    drop(work);
    // The sets the closures end with, kept for the run (whatever order
    // they were reached in, these are the same), and the decision.
    // (Sets made and held by none are left out, in their order of making.)
    let kept_as: Vec<SetId> = (0..made.sets.len())
        .map(|s| match holders.get(s) {
            Some(&n) if s != 0 && n > 0 => sets.intern(&made.sets[s]),
            _ => 0,
        })
        .collect();
    let needed = table + sets.bytes();
    if needed > limit {
        return Err(too_big(needed));
    }
    Ok(Retained { of, kept_as })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Vals(Vec<Value>);
    impl Roots for Vals {
        fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
            f(&mut self.0);
        }
    }

    fn con(n: u32) -> Info {
        Info {
            tag: Tag::Con,
            n,
            index: 0,
        }
    }

    fn thunk(n: u32) -> Info {
        Info {
            tag: Tag::Lambda,
            n,
            index: 7,
        }
    }

    /// Thunks (lambda 7) are retainers named by their cost-centre word.
    fn thunks(_: Addr, info: Info, cc: u32) -> Option<u32> {
        (info.tag == Tag::Lambda).then_some(cc)
    }

    #[test]
    fn retainers_stop_propagation_and_others_pass_it_on() {
        let mut heap = Heap::new(1 << 20);
        // leaf <- cell <- thunk t1 (cc 5) ; root -> t1, root -> cell2 -> leaf
        let leaf = heap.alloc(con(1), 1, &[Value::Int(3)]).unwrap();
        let cell = heap.alloc(con(1), 1, &[Value::Ptr(leaf)]).unwrap();
        let t1 = heap.alloc(thunk(1), 5, &[Value::Ptr(cell)]).unwrap();
        let t2 = heap.alloc(thunk(1), 6, &[Value::Ptr(t1)]).unwrap();
        let cell2 = heap.alloc(con(1), 1, &[Value::Ptr(leaf)]).unwrap();
        let mut roots = Vals(vec![Value::Ptr(t2), Value::Ptr(cell2), Value::Ptr(t2)]);
        let mut sets = RetainerSets::default();
        let got = compute(&heap, &mut roots, &mut sets, &mut thunks, u64::MAX).unwrap();
        let m = |a| sets.members(got.set_of(a)).to_vec();
        assert_eq!(m(t2), vec![SYSTEM]);
        assert_eq!(m(t1), vec![6]);
        assert_eq!(m(cell), vec![5]);
        assert_eq!(m(leaf), vec![5, SYSTEM]);
        assert_eq!(m(cell2), vec![SYSTEM]);
    }

    #[test]
    fn a_cycle_of_thunks_retains_itself_and_ends() {
        let mut heap = Heap::new(1 << 20);
        let a = heap.alloc(thunk(1), 1, &[Value::Int(0)]).unwrap();
        let b = heap.alloc(thunk(1), 2, &[Value::Ptr(a)]).unwrap();
        heap.set_payload(a, 0, Value::Ptr(b));
        let mut roots = Vals(vec![Value::Ptr(a)]);
        let mut sets = RetainerSets::default();
        let got = compute(&heap, &mut roots, &mut sets, &mut thunks, u64::MAX).unwrap();
        assert_eq!(sets.members(got.set_of(a)), &[2, SYSTEM]);
        assert_eq!(sets.members(got.set_of(b)), &[1]);
    }

    #[test]
    fn the_bound_is_an_error_not_growth() {
        let mut heap = Heap::new(1 << 20);
        let mut last = heap.alloc(con(1), 1, &[Value::Int(0)]).unwrap();
        for _ in 0..100 {
            last = heap.alloc(con(1), 1, &[Value::Ptr(last)]).unwrap();
        }
        let mut roots = Vals(vec![Value::Ptr(last)]);
        let mut sets = RetainerSets::default();
        let err = compute(&heap, &mut roots, &mut sets, &mut thunks, 64).unwrap_err();
        assert_eq!(err.limit, 64);
        assert!(err.needed > 64);
    }
}
