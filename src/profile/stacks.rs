//! Cost-centre stacks (SEMANTICS.md, "Stacks mode"): an interned tree of
//! stacks. Stack 0 is the empty stack; every other stack is a node
//! `(parent, cc)`. Engine-independent: ids are handed out in the order stacks
//! are first built, which is deterministic for a given run.

use std::collections::HashMap;

use crate::profile::cost_centre::CcId;

pub type StackId = u32;

/// The empty stack.
pub const EMPTY: StackId = 0;

#[derive(Clone, Copy, Debug)]
pub struct StackNode {
    pub parent: StackId,
    pub cc: CcId,
    pub depth: u32,
}

#[derive(Clone, Debug)]
pub struct StackTree {
    nodes: Vec<StackNode>,
    index: HashMap<(StackId, CcId), StackId>,
    /// Remembered results of [`StackTree::push`] and [`StackTree::append`]:
    /// both are functions of their arguments alone (stacks are interned and
    /// never change), and a program calls them with the same few pairs
    /// again and again (every entry of an auto-cc'd function is a `push`).
    push_memo: Memo,
    append_memo: Memo,
    /// The modules' `CAF` cost centres ([`StackTree::set_cafs`]).
    cafs: Vec<CcId>,
}

/// A direct-mapped cache `(a, b) → result`: one slot per hash of the pair,
/// a newer pair replacing an older one. No allocation after creation.
#[derive(Clone, Debug)]
struct Memo {
    slots: Vec<(u32, u32, StackId)>,
}

/// Slots of a [`Memo`] (a power of two).
const MEMO_SLOTS: usize = 1 << 12;

/// Marks an empty slot: no stack has this id (ids are below `nodes.len()`,
/// which cannot reach it before memory runs out).
const NO_STACK: u32 = u32::MAX;

impl Memo {
    fn new() -> Memo {
        Memo {
            slots: vec![(NO_STACK, 0, EMPTY); MEMO_SLOTS],
        }
    }

    #[inline]
    fn slot(a: u32, b: u32) -> usize {
        let h = (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (b as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
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
            }],
            index: HashMap::new(),
            push_memo: Memo::new(),
            append_memo: Memo::new(),
            cafs: Vec::new(),
        }
    }

    /// The modules' `CAF` cost centres, for [`StackTree::append`]: a stack
    /// `MAIN > CAF > …` appended where its `CAF` is not shared adds only
    /// what is above it.
    pub fn set_cafs(&mut self, cafs: &[CcId]) {
        self.cafs = cafs.to_vec();
        self.append_memo = Memo::new();
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
        if let Some(&id) = self.index.get(&(s, cc)) {
            return id;
        }
        let id = self.nodes.len() as StackId;
        let depth = self.nodes[s as usize].depth + 1;
        self.nodes.push(StackNode {
            parent: s,
            cc,
            depth,
        });
        self.index.insert((s, cc), id);
        id
    }

    /// `push(s, l)`: `s` if `l` is on top; cut back to `l` if it occurs
    /// deeper; otherwise `s > l`.
    pub fn push(&mut self, s: StackId, l: CcId) -> StackId {
        if let Some(r) = self.push_memo.get(s, l) {
            return r;
        }
        let r = self.push_uncached(s, l);
        self.push_memo.put(s, l, r);
        r
    }

    fn push_uncached(&mut self, s: StackId, l: CcId) -> StackId {
        let mut t = s;
        while t != EMPTY {
            let n = self.nodes[t as usize];
            if n.cc == l {
                return t;
            }
            t = n.parent;
        }
        self.child(s, l)
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

    fn append_uncached(&mut self, current: StackId, t: StackId) -> StackId {
        let cur = self.elements(current);
        let add = self.elements(t);
        let shared = cur
            .iter()
            .zip(add.iter())
            .take_while(|(a, b)| a == b)
            .count();
        // `add[0]` is `MAIN`; `add[1]`, when a CAF, is the root.
        let from = if shared == 1 && add.len() > 1 && self.cafs.contains(&add[1]) {
            2
        } else {
            shared
        };
        let mut s = current;
        for &cc in &add[from..] {
            s = self.push(s, cc);
        }
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

    /// The memo changes no result and no stack id: a long pseudo-random run
    /// of pushes and appends (far more pairs than memo slots, so slots are
    /// overwritten) gives the same answers, and builds the same nodes in the
    /// same order, as the same run computed without it.
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
