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
        }
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
    pub fn append(&mut self, current: StackId, t: StackId) -> StackId {
        if t == EMPTY || t == current {
            return current;
        }
        let cur = self.elements(current);
        let add = self.elements(t);
        let shared = cur
            .iter()
            .zip(add.iter())
            .take_while(|(a, b)| a == b)
            .count();
        let mut s = current;
        for &cc in &add[shared..] {
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
}
