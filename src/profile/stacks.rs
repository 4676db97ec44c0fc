//! Cost-centre stacks (SEMANTICS.md, "Stacks mode"): an interned tree of
//! stacks. Stack 0 is the empty stack; every other stack is a node
//! `(parent, cc)`. Engine-independent: ids are handed out in the order stacks
//! are first built, which is deterministic for a given run.
//!
//! No operation walks a whole stack; making, finding and charging a stack
//! cost the same at any depth, a cut-back or an append onto a stack that
//! holds the cost centre elsewhere a number of steps logarithmic in it
//! (docs/PERFORMANCE.md, "Deep cost-centre stacks"):
//! - `push(s, l)` must know whether `l` is on `s` already (a stack holds each
//!   cost centre at most once). A walk up the stack answers that for shallow
//!   stacks; deeper, the answer is remembered per pair, and a new pair is
//!   answered by the cost centre's *occurrences*: the nodes whose top is `l`,
//!   kept in the lexicographic order of their stacks. No occurrence is on
//!   another's stack, so the one that can be on `s` is the last occurrence
//!   before `s` in that order: one search and one ancestor test.
//! - Ancestors at a given depth and common prefixes are found through one
//!   jump pointer per node (Myers' skew-binary jumps), in time logarithmic
//!   in the depth. Each node keeps its jump's depth, so a search reads only
//!   the nodes it steps to.
//! - The children of a node are a list threaded through them (last child,
//!   previous sibling) while it has at most `FEW_CHILDREN` (8); only a node with
//!   more has its children in the table keyed by `(parent, cc)`. Making a
//!   stack then writes the new node and its parent, which is the current
//!   stack: no probe of a table of millions of pairs (a cache miss each),
//!   which made deep pushes slower as the tree grew.
//! - `append(current, t)` finds the prefix the two share as their common
//!   ancestor, and pushes only what `t` has above it.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::fx_hash::FxHasher;
use crate::profile::cost_centre::CcId;

/// A map keyed by a pair of ids, `(a, b)` as `a << 32 | b`.
type PairMap = HashMap<u64, StackId, BuildHasherDefault<FxHasher>>;

fn pair(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

pub type StackId = u32;

/// The empty stack.
pub const EMPTY: StackId = 0;

/// One stack: 32 bytes, half a cache line.
#[derive(Clone, Copy, Debug)]
pub struct StackNode {
    pub parent: StackId,
    pub cc: CcId,
    pub depth: u32,
    /// An ancestor further up than the parent, for level-ancestor searches
    /// ([`StackTree::ancestor_at`]); its depth depends only on this node's.
    jump: StackId,
    /// The depth of `jump`.
    jump_depth: u32,
    /// The last child made, while there are at most [`FEW_CHILDREN`]
    /// ([`EMPTY`] for none: the empty stack is nobody's child).
    last_child: StackId,
    /// The child of `parent` made before this one, in `parent`'s list.
    prev_sibling: StackId,
    /// How many children the node has.
    children: u32,
}

#[derive(Clone, Debug)]
pub struct StackTree {
    nodes: Vec<StackNode>,
    /// `(s, cc)` → the node `s > cc`, for the nodes `s` with more than
    /// [`FEW_CHILDREN`] children (the others list theirs).
    index: PairMap,
    /// `(s, l)` → `push(s, l)` where `l` is on `s` below its top and `s` is
    /// deeper than [`SHORT_WALK`] (GHC's "back edges"); shallower stacks
    /// are walked.
    cut_back: PairMap,
    /// `(current, t)` → `append(current, t)` for appends that push more
    /// than [`SHORT_APPEND`] cost centres, each computed once.
    long_appends: PairMap,
    /// Per cost centre, the nodes with it on top, in stack order.
    occurrences: Vec<Occurrences>,
    /// Remembered results of [`StackTree::push`] and [`StackTree::append`]:
    /// both are functions of their arguments alone (stacks are interned and
    /// never change), and a program calls them with the same few pairs
    /// again and again (every entry of an auto-cc'd function is a `push`).
    push_memo: Memo,
    append_memo: Memo,
    /// The modules' `CAF` cost centres ([`StackTree::set_cafs`]).
    cafs: Vec<CcId>,
    /// The cost centres an append pushes (kept to save allocations).
    scratch: Vec<CcId>,
}

/// Stacks at most this deep are searched by walking them.
const SHORT_WALK: u32 = 16;

/// A node with at most this many children finds them by walking its list;
/// one with more, in [`StackTree::index`].
const FEW_CHILDREN: u32 = 8;

/// Appends that push at most this many cost centres are not remembered
/// beyond the [`Memo`].
const SHORT_APPEND: u32 = 16;

/// A direct-mapped cache `(a, b) → result`: one slot per hash of the pair,
/// a newer pair replacing an older one. No allocation after creation. A
/// remembered push is what every `scc` step of stacks mode costs, so a
/// look-up is one multiplication (Fibonacci hashing of the pair as one
/// word) and an index the compiler knows is in range (a fixed-size array).
#[derive(Clone, Debug)]
struct Memo {
    slots: Box<[(u32, u32, StackId); MEMO_SLOTS]>,
}

/// Slots of a [`Memo`] (a power of two).
const MEMO_SLOTS: usize = 1 << 12;

/// Marks an empty slot: no stack has this id (ids are below `nodes.len()`,
/// which cannot reach it before memory runs out).
const NO_STACK: u32 = u32::MAX;

impl Memo {
    fn new() -> Memo {
        let slots = vec![(NO_STACK, 0, EMPTY); MEMO_SLOTS].into_boxed_slice();
        Memo {
            slots: slots.try_into().expect("MEMO_SLOTS slots"),
        }
    }

    #[inline]
    fn slot(a: u32, b: u32) -> usize {
        let h = ((a as u64) << 32 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
    }

    #[inline]
    fn get(&self, a: u32, b: u32) -> Option<StackId> {
        let (x, y, r) = self.slots[Memo::slot(a, b)];
        (x == a && y == b).then_some(r)
    }

    #[inline]
    fn put(&mut self, a: u32, b: u32, r: StackId) {
        self.slots[Memo::slot(a, b)] = (a, b, r);
    }
}

/// The nodes with one cost centre on top, in the lexicographic order of
/// their stacks (bottom first, cost centres by id): most cost centres have
/// one; more are kept as a list of sorted chunks, so that a search is a
/// binary search and an insertion moves at most a chunk.
#[derive(Clone, Debug, Default)]
enum Occurrences {
    #[default]
    None,
    One(StackId),
    Chunks(Vec<Vec<StackId>>),
}

/// Nodes per chunk of [`Occurrences`] before it is split.
const CHUNK: usize = 256;

impl Occurrences {
    /// The last node not after `s` in `order`, if any.
    fn last_up_to(
        &self,
        s: StackId,
        order: impl Fn(StackId, StackId) -> Ordering,
    ) -> Option<StackId> {
        let not_after = |x: StackId| order(x, s) != Ordering::Greater;
        match self {
            Occurrences::None => None,
            Occurrences::One(x) => not_after(*x).then_some(*x),
            Occurrences::Chunks(chunks) => {
                // The last chunk whose first node is not after `s` holds it.
                let n = chunks.partition_point(|c| not_after(c[0]));
                let chunk = chunks.get(n.checked_sub(1)?)?;
                Some(chunk[chunk.partition_point(|&x| not_after(x)) - 1])
            }
        }
    }

    fn insert(&mut self, s: StackId, order: impl Fn(StackId, StackId) -> Ordering) {
        let before = |x: StackId| order(x, s) == Ordering::Less;
        match self {
            Occurrences::None => *self = Occurrences::One(s),
            Occurrences::One(x) => {
                let pair = if before(*x) { vec![*x, s] } else { vec![s, *x] };
                *self = Occurrences::Chunks(vec![pair]);
            }
            Occurrences::Chunks(chunks) => {
                // Into the last chunk whose first node is before `s` (or
                // the first chunk).
                let c = chunks.partition_point(|c| before(c[0])).saturating_sub(1);
                let chunk = &mut chunks[c];
                let i = chunk.partition_point(|&x| before(x));
                chunk.insert(i, s);
                if chunk.len() > CHUNK {
                    let upper = chunk.split_off(CHUNK / 2);
                    chunks.insert(c + 1, upper);
                }
            }
        }
    }
}

impl Default for StackTree {
    fn default() -> Self {
        StackTree::new()
    }
}

impl StackTree {
    pub fn new() -> StackTree {
        StackTree {
            nodes: vec![StackNode {
                parent: EMPTY,
                cc: 0,
                depth: 0,
                jump: EMPTY,
                jump_depth: 0,
                last_child: EMPTY,
                prev_sibling: EMPTY,
                children: 0,
            }],
            index: PairMap::default(),
            cut_back: PairMap::default(),
            long_appends: PairMap::default(),
            occurrences: Vec::new(),
            push_memo: Memo::new(),
            append_memo: Memo::new(),
            cafs: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The modules' `CAF` cost centres, for [`StackTree::append`]: a stack
    /// `MAIN > CAF > …` appended where its `CAF` is not shared adds only
    /// what is above it.
    pub fn set_cafs(&mut self, cafs: &[CcId]) {
        self.cafs = cafs.to_vec();
        self.append_memo = Memo::new();
        self.long_appends.clear();
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn node(&self, s: StackId) -> StackNode {
        self.nodes[s as usize]
    }

    /// `s > cc`, interned.
    pub fn child(&mut self, s: StackId, cc: CcId) -> StackId {
        match self.find_child(s, cc) {
            Some(id) => id,
            None => self.new_child(s, cc),
        }
    }

    /// `s > cc`, if it exists.
    fn find_child(&self, s: StackId, cc: CcId) -> Option<StackId> {
        let n = self.nodes[s as usize];
        if n.children > FEW_CHILDREN {
            return self.index.get(&pair(s, cc)).copied();
        }
        let mut c = n.last_child;
        while c != EMPTY {
            let child = self.nodes[c as usize];
            if child.cc == cc {
                return Some(c);
            }
            c = child.prev_sibling;
        }
        None
    }

    /// `s > cc`, which does not exist yet.
    fn new_child(&mut self, s: StackId, cc: CcId) -> StackId {
        let id = self.nodes.len() as StackId;
        let parent = self.nodes[s as usize];
        // Myers' skew-binary jumps: over two equal jumps when the parent's
        // jump is as long as its jump's, else to the parent. (One node
        // read besides the parent: the parent's jump, usually close by.)
        let up = self.nodes[parent.jump as usize];
        let (jump, jump_depth) = if s != EMPTY
            && parent.depth - parent.jump_depth == parent.jump_depth - up.jump_depth
        {
            (up.jump, up.jump_depth)
        } else {
            (s, parent.depth)
        };
        let children = parent.children + 1;
        self.nodes.push(StackNode {
            parent: s,
            cc,
            depth: parent.depth + 1,
            jump,
            jump_depth,
            last_child: EMPTY,
            prev_sibling: if children <= FEW_CHILDREN {
                parent.last_child
            } else {
                EMPTY
            },
            children: 0,
        });
        let p = &mut self.nodes[s as usize];
        p.children = children;
        if children <= FEW_CHILDREN {
            p.last_child = id;
        } else {
            if children == FEW_CHILDREN + 1 {
                // Past the list: its children move to the table.
                let mut c = p.last_child;
                p.last_child = EMPTY;
                while c != EMPTY {
                    let child = self.nodes[c as usize];
                    self.index.insert(pair(s, child.cc), c);
                    c = child.prev_sibling;
                }
            }
            self.index.insert(pair(s, cc), id);
        }
        let cc = cc as usize;
        if self.occurrences.len() <= cc {
            self.occurrences.resize_with(cc + 1, Occurrences::default);
        }
        let mut occurrences = std::mem::take(&mut self.occurrences[cc]);
        occurrences.insert(id, |a, b| self.stack_order(a, b));
        self.occurrences[cc] = occurrences;
        id
    }

    /// The ancestor of `s` (or `s` itself) at depth `depth` (at most `s`'s).
    fn ancestor_at(&self, mut s: StackId, depth: u32) -> StackId {
        loop {
            let n = self.nodes[s as usize];
            if n.depth <= depth {
                return s;
            }
            s = if n.jump_depth >= depth {
                n.jump
            } else {
                n.parent
            };
        }
    }

    /// The deepest common ancestor of `a` and `b` (their shared prefix).
    fn common_ancestor(&self, a: StackId, b: StackId) -> StackId {
        let depth = self.nodes[a as usize]
            .depth
            .min(self.nodes[b as usize].depth);
        let (mut a, mut b) = (self.ancestor_at(a, depth), self.ancestor_at(b, depth));
        // At equal depths the jumps have equal depths too.
        while a != b {
            let (na, nb) = (self.nodes[a as usize], self.nodes[b as usize]);
            if na.jump != nb.jump {
                (a, b) = (na.jump, nb.jump);
            } else {
                (a, b) = (na.parent, nb.parent);
            }
        }
        a
    }

    /// The lexicographic order of the stacks' cost centres, bottom first:
    /// a stack comes right before the stacks it is a prefix of.
    fn stack_order(&self, a: StackId, b: StackId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let c = self.common_ancestor(a, b);
        if c == a {
            return Ordering::Less;
        }
        if c == b {
            return Ordering::Greater;
        }
        let depth = self.nodes[c as usize].depth + 1;
        let (x, y) = (self.ancestor_at(a, depth), self.ancestor_at(b, depth));
        self.nodes[x as usize].cc.cmp(&self.nodes[y as usize].cc)
    }

    /// `push(s, l)`: `s` if `l` is on top; cut back to `l` if it occurs
    /// deeper; otherwise `s > l`. Inline: a remembered push is a few
    /// instructions, fewer than a call's (the engines' `scc` steps).
    #[inline(always)]
    pub fn push(&mut self, s: StackId, l: CcId) -> StackId {
        if let Some(r) = self.push_memo.get(s, l) {
            return r;
        }
        let r = self.push_uncached(s, l);
        self.push_memo.put(s, l, r);
        r
    }

    // Out of line, so that a remembered push stays a few instructions.
    #[inline(never)]
    fn push_uncached(&mut self, s: StackId, l: CcId) -> StackId {
        // A short stack is walked.
        let mut t = s;
        for _ in 0..=SHORT_WALK {
            if t == EMPTY {
                return self.child(s, l);
            }
            let n = self.nodes[t as usize];
            if n.cc == l {
                return t;
            }
            t = n.parent;
        }
        // A deeper one. Every node with `l` on top is an occurrence of `l`,
        // so with none or one (most cost centres) the answer takes no table
        // look-up: a look-up in a table of millions of pairs is a cache miss,
        // which made deep pushes slower as the tree grew.
        match self.occurrences.get(l as usize) {
            None | Some(Occurrences::None) => return self.new_child(s, l),
            Some(&Occurrences::One(x)) => {
                let n = self.nodes[x as usize];
                return if n.parent == s || self.ancestor_at(s, n.depth) == x {
                    x
                } else {
                    self.new_child(s, l)
                };
            }
            Some(Occurrences::Chunks(_)) => {}
        }
        // More occurrences: a pair met before, else the one occurrence of
        // `l` that can be on `s`.
        let key = pair(s, l);
        if let Some(r) = self
            .find_child(s, l)
            .or_else(|| self.cut_back.get(&key).copied())
        {
            return r;
        }
        let candidate = self
            .occurrences
            .get(l as usize)
            .and_then(|o| o.last_up_to(s, |a, b| self.stack_order(a, b)));
        match candidate {
            Some(c) if self.ancestor_at(s, self.nodes[c as usize].depth) == c => {
                self.cut_back.insert(key, c);
                c
            }
            _ => self.new_child(s, l),
        }
    }

    /// The cost centres of `s`, bottom first.
    pub fn elements(&self, s: StackId) -> Vec<CcId> {
        let mut v = Vec::with_capacity(self.nodes[s as usize].depth as usize);
        let mut t = s;
        while t != EMPTY {
            v.push(self.nodes[t as usize].cc);
            t = self.nodes[t as usize].parent;
        }
        v.reverse();
        v
    }

    /// Function entry: `current` with `t` appended, skipping the longest
    /// prefix `t` shares with `current`, each remaining element added with
    /// [`StackTree::push`]. An empty `t` (or `t == current`) changes nothing.
    ///
    /// When `t` is rooted at a module's `CAF` (`MAIN > CAF > …`, a closure
    /// built while a CAF was evaluated) and `current` is not (another
    /// module's CAF, or `MAIN`), that `CAF` is not added either, only what
    /// is above it: GHC's `appendCCS` stops at a CAF element, so that each
    /// module's CAF is the root of a tree of its own (docs/DECISIONS.md,
    /// "Stacks mode: appending a stack built by another module's CAF").
    #[inline(always)]
    pub fn append(&mut self, current: StackId, t: StackId) -> StackId {
        if t == EMPTY || t == current {
            return current;
        }
        if let Some(r) = self.append_memo.get(current, t) {
            return r;
        }
        let r = self.append_uncached(current, t);
        self.append_memo.put(current, t, r);
        r
    }

    #[inline(never)]
    fn append_uncached(&mut self, current: StackId, t: StackId) -> StackId {
        // The shared prefix is the common ancestor (stacks are interned).
        let shared = self.nodes[self.common_ancestor(current, t) as usize].depth;
        let depth = self.nodes[t as usize].depth;
        // The second element, when a CAF, is the root.
        let from = if shared == 1 && depth > 1 && {
            let second = self.nodes[self.ancestor_at(t, 2) as usize].cc;
            self.cafs.contains(&second)
        } {
            2
        } else {
            shared
        };
        // Only an append that pushes many cost centres is looked up (a
        // short one is cheaper to do than a probe of a large table).
        let long = depth - from > SHORT_APPEND;
        if long && let Some(&r) = self.long_appends.get(&pair(current, t)) {
            return r;
        }
        // `t`'s elements above depth `from`, top first.
        let mut add = std::mem::take(&mut self.scratch);
        add.clear();
        let mut u = t;
        while self.nodes[u as usize].depth > from {
            add.push(self.nodes[u as usize].cc);
            u = self.nodes[u as usize].parent;
        }
        let mut s = current;
        for &cc in add.iter().rev() {
            s = self.push(s, cc);
        }
        if long {
            self.long_appends.insert(pair(current, t), s);
        }
        self.scratch = add;
        s
    }

    /// Children of every node, each list in cost-centre-id order.
    pub fn children(&self) -> Vec<Vec<StackId>> {
        let mut ch: Vec<Vec<StackId>> = vec![Vec::new(); self.nodes.len()];
        for (id, n) in self.nodes.iter().enumerate().skip(1) {
            ch[n.parent as usize].push(id as StackId);
        }
        for c in &mut ch {
            c.sort_by_key(|&id| self.nodes[id as usize].cc);
        }
        ch
    }

    /// `MAIN > CAF > f` style rendering, given cost-centre names.
    pub fn render(&self, s: StackId, name: &dyn Fn(CcId) -> String) -> String {
        let e = self.elements(s);
        if e.is_empty() {
            return "<empty stack>".to_string();
        }
        e.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" > ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_cuts_back_and_append_skips_shared_prefix() {
        let mut t = StackTree::new();
        let main = t.child(EMPTY, 1);
        let a = t.push(main, 2);
        let ab = t.push(a, 3);
        assert_eq!(t.push(ab, 3), ab);
        assert_eq!(t.push(ab, 2), a);
        let caf = t.push(main, 4);
        let caf_x = t.push(caf, 5);
        // current MAIN>2>3, captured MAIN>4>5: shares MAIN, pushes 4 then 5.
        let r = t.append(ab, caf_x);
        assert_eq!(t.elements(r), vec![1, 2, 3, 4, 5]);
        assert_eq!(t.append(ab, EMPTY), ab);
        // captured MAIN>2 is a prefix of current: nothing changes.
        assert_eq!(t.append(ab, a), ab);
    }

    #[test]
    fn append_leaves_out_a_caf_root_it_does_not_share() {
        let mut t = StackTree::new();
        let main = t.child(EMPTY, 1);
        // Two modules' CAFs, 2 and 3; 4 and 5 are other cost centres.
        t.set_cafs(&[2, 3]);
        let caf_a = t.push(main, 2);
        let caf_b = t.push(main, 3);
        let b_f = t.push(caf_b, 4);
        let b_fg = t.push(b_f, 5);
        // Built under CAF(B) > 4 > 5, applied under CAF(A): only 4 > 5.
        let r = t.append(caf_a, b_fg);
        assert_eq!(t.elements(r), vec![1, 2, 4, 5]);
        // A stack that is just another module's CAF adds nothing.
        assert_eq!(t.append(caf_a, caf_b), caf_a);
        // Under MAIN alone, likewise only what is above the CAF.
        let r = t.append(main, b_f);
        assert_eq!(t.elements(r), vec![1, 4]);
        // Under its own CAF the shared prefix is skipped as before.
        let r = t.append(b_fg, b_f);
        assert_eq!(r, b_fg);
        let a_4 = t.push(caf_a, 4);
        let r = t.append(a_4, b_fg);
        assert_eq!(t.elements(r), vec![1, 2, 4, 5]);
        // A CAF pushed by `scc "CAF"` above the root is an ordinary element.
        let b_f_caf = t.push(b_f, 2);
        let r = t.append(main, b_f_caf);
        assert_eq!(t.elements(r), vec![1, 4, 2]);
    }

    /// A xorshift generator of numbers below `n`.
    fn rng(seed: u64) -> impl FnMut(usize) -> usize {
        let mut x = seed;
        move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        }
    }

    /// `push` on a stack written out, as SEMANTICS.md defines it.
    fn push_list(s: &[CcId], l: CcId) -> Vec<CcId> {
        match s.iter().position(|&c| c == l) {
            Some(i) => s[..=i].to_vec(),
            None => [s, &[l]].concat(),
        }
    }

    /// `append` on stacks written out (`cafs` as in [`StackTree::set_cafs`]).
    fn append_list(current: &[CcId], t: &[CcId], cafs: &[CcId]) -> Vec<CcId> {
        let shared = current.iter().zip(t).take_while(|(a, b)| a == b).count();
        let from = if shared == 1 && t.len() > 1 && cafs.contains(&t[1]) {
            2
        } else {
            shared
        };
        t[from..]
            .iter()
            .fold(current.to_vec(), |s, &l| push_list(&s, l))
    }

    /// Deep stacks (far past the short walk) built by random pushes and
    /// appends: every result is the stack the definitions give, and equal
    /// stacks are one node. Few cost centres recur often (cut-backs at every
    /// depth, many occurrences of each), the rest make the stacks deep.
    #[test]
    fn deep_stacks_agree_with_the_definitions() {
        for seed in [1u64, 2, 3, 0x2545_F491_4F6C_DD1D] {
            let mut next = rng(seed);
            let mut t = StackTree::new();
            let cafs = [2, 3];
            t.set_cafs(&cafs);
            let main = t.child(EMPTY, 1);
            let mut seen: Vec<(StackId, Vec<CcId>)> = vec![(main, vec![1])];
            let mut ids: HashMap<Vec<CcId>, StackId> = HashMap::from([(vec![1], main)]);
            for _ in 0..20_000 {
                let (s, list) = seen[next(seen.len())].clone();
                let (r, want) = if next(4) == 0 {
                    let (u, ulist) = seen[next(seen.len())].clone();
                    (t.append(s, u), append_list(&list, &ulist, &cafs))
                } else {
                    // Mostly deeper: favour the deepest stacks seen.
                    let l = match next(10) {
                        0 => 2 + next(8) as CcId,
                        1..=3 => 10 + next(400) as CcId,
                        _ => 1_000 + next(1_000_000) as CcId,
                    };
                    let (s, list) = if next(4) != 0 {
                        seen[seen.len() - 1 - next(seen.len().min(20))].clone()
                    } else {
                        (s, list)
                    };
                    (t.push(s, l), push_list(&list, l))
                };
                assert_eq!(t.elements(r), want, "seed {seed}");
                assert_eq!(*ids.entry(want.clone()).or_insert(r), r, "interned");
                seen.push((r, want));
            }
            let deepest = seen.iter().map(|(_, l)| l.len()).max().unwrap();
            assert!(deepest > 3 * SHORT_WALK as usize, "only {deepest} deep");
            let deep = seen.iter().filter(|(_, l)| l.len() > SHORT_WALK as usize);
            assert!(deep.count() > seen.len() / 4, "too few deep stacks");
        }
    }

    /// Ancestors at a depth, common ancestors and the stack order on a
    /// random tree, against walking and comparing the lists.
    #[test]
    fn ancestors_and_order_agree_with_walking() {
        let mut next = rng(7);
        let mut t = StackTree::new();
        let mut all = vec![t.child(EMPTY, 1)];
        for _ in 0..3_000 {
            // A chain now and then, so that some stacks are deep.
            let s = if next(10) == 0 {
                all[next(all.len())]
            } else {
                *all.last().unwrap()
            };
            let c = t.child(s, 2 + next(5_000) as CcId);
            all.push(c);
        }
        for _ in 0..3_000 {
            let (a, b) = (all[next(all.len())], all[next(all.len())]);
            let (la, lb) = (t.elements(a), t.elements(b));
            let d = next(la.len() + 1) as u32;
            assert_eq!(t.elements(t.ancestor_at(a, d)), la[..d as usize]);
            let shared = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
            assert_eq!(t.elements(t.common_ancestor(a, b)), la[..shared]);
            assert_eq!(t.stack_order(a, b), la.cmp(&lb));
        }
    }

    /// The memo changes no result and no stack id: a long pseudo-random run
    /// of pushes and appends (far more pairs than memo slots, so slots are
    /// overwritten) gives the same answers, and builds the same nodes in the
    /// same order, as the same run computed without it.
    /// A node past [`FEW_CHILDREN`] children moves them from its list to
    /// the table: every child is still found, as the same node, by `child`
    /// and `push`, and none is made twice.
    #[test]
    fn children_are_found_past_the_list() {
        let mut t = StackTree::new();
        let main = t.child(EMPTY, 1);
        let kids: Vec<StackId> = (2..40).map(|cc| t.child(main, cc)).collect();
        for (i, cc) in (2..40).enumerate() {
            assert_eq!(t.child(main, cc), kids[i]);
            assert_eq!(t.push(main, cc), kids[i]);
            assert_eq!(t.node(kids[i]).parent, main);
            assert_eq!(t.node(kids[i]).cc, cc);
        }
        assert_eq!(t.len(), 2 + kids.len());
        // Grandchildren under a few of them, then all found again.
        let grand: Vec<StackId> = kids.iter().map(|&k| t.child(k, 99)).collect();
        for (k, g) in kids.iter().zip(&grand) {
            assert_eq!(t.child(*k, 99), *g);
        }
        assert_eq!(t.len(), 2 + 2 * kids.len());
    }

    #[test]
    fn memo_changes_nothing() {
        let (mut memo, mut plain) = (StackTree::new(), StackTree::new());
        let root = memo.child(EMPTY, 1);
        assert_eq!(plain.child(EMPTY, 1), root);
        let mut seen = vec![root];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..40_000 {
            let s = seen[next(seen.len())];
            let r = if next(3) == 0 {
                let t = seen[next(seen.len())];
                let r = memo.append(s, t);
                let want = if t == EMPTY || t == s {
                    s
                } else {
                    plain.append_uncached(s, t)
                };
                assert_eq!(r, want, "append({s}, {t})");
                r
            } else {
                let l = 1 + next(12) as CcId;
                let r = memo.push(s, l);
                assert_eq!(r, plain.push_uncached(s, l), "push({s}, {l})");
                r
            };
            assert_eq!(memo.len(), plain.len());
            if seen.len() < 20_000 {
                seen.push(r);
            }
        }
        assert!(
            memo.len() > MEMO_SLOTS / 4,
            "too few stacks to test eviction"
        );
    }
}
