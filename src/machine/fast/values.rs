//! The fast engine's value stack: the constant area and the environments,
//! one contiguous run of values (see the module doc of `fast`).
//!
//! Its top moves down and up as environments are dropped and opened; the
//! values above the top are dead (the collector does not see them) and are
//! kept only as room, so that opening an environment writes its slots in
//! place instead of pushing them one by one.

use crate::gc::Value;

/// What the debug build writes into the slots of a fresh environment that
/// nothing has bound yet: a pointer far outside any heap, so that a
/// collector that took such a slot for a root (a mistake in `live.rs`)
/// would fail at once. The release build leaves the slots as they are:
/// nothing reads a slot before binding it, and the collector clears the
/// slots outside the live set before it looks at an environment.
const UNBOUND: Value = Value::Ptr(u64::MAX >> 8);

/// Mark `slots` (of a fresh environment) as not bound yet: see [`UNBOUND`].
#[inline(always)]
pub(super) fn unbound(slots: &mut [Value]) {
    if cfg!(debug_assertions) {
        slots.fill(UNBOUND);
    }
}

#[derive(Default)]
pub(super) struct ValueStack {
    /// Room for the stack; `area[..top]` is the stack.
    area: Vec<Value>,
    top: usize,
}

impl ValueStack {
    pub fn with_capacity(n: usize) -> ValueStack {
        ValueStack {
            area: vec![Value::Int(0); n],
            top: 0,
        }
    }

    /// The height of the stack.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.top
    }

    /// Drop everything above `n` (nothing if the stack is lower).
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.top = self.top.min(n);
    }

    /// The stack with its top at `base + size`: the slots `base..base +
    /// size`, for the caller to fill in every one of them (they may hold
    /// dead values).
    #[inline(always)]
    pub fn open(&mut self, base: usize, size: usize) -> &mut [Value] {
        let end = base + size;
        if end > self.area.len() {
            self.grow(end);
        }
        self.top = end;
        &mut self.area[base..end]
    }

    /// Make room up to `end` and a little beyond. The vector's capacity
    /// grows by doubling, but only the slots up to the new room are
    /// written, so that memory never used is never resident.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, end: usize) {
        const SLACK: usize = 256;
        self.area.reserve(end + SLACK - self.area.len());
        self.area.resize(end + SLACK, Value::Int(0));
    }

    /// Push the values of `from` (a scrutinee's copy of its environment,
    /// the constant area).
    pub fn extend_from_slice(&mut self, from: &[Value]) {
        let base = self.top;
        self.open(base, from.len()).copy_from_slice(from);
    }

    /// Push a copy of `self[from..from + n]`.
    #[inline]
    pub fn extend_from_within(&mut self, from: usize, n: usize) {
        let base = self.top;
        self.open(base, n);
        self.area.copy_within(from..from + n, base);
    }

    /// The stack, bottom first.
    pub fn as_mut_slice(&mut self) -> &mut [Value] {
        &mut self.area[..self.top]
    }
}

impl std::ops::Index<usize> for ValueStack {
    type Output = Value;
    #[inline(always)]
    fn index(&self, i: usize) -> &Value {
        debug_assert!(i < self.top);
        &self.area[i]
    }
}

impl std::ops::IndexMut<usize> for ValueStack {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut Value {
        debug_assert!(i < self.top);
        &mut self.area[i]
    }
}

impl std::ops::Index<std::ops::Range<usize>> for ValueStack {
    type Output = [Value];
    #[inline(always)]
    fn index(&self, r: std::ops::Range<usize>) -> &[Value] {
        debug_assert!(r.end <= self.top);
        &self.area[r]
    }
}

impl std::ops::IndexMut<std::ops::Range<usize>> for ValueStack {
    #[inline(always)]
    fn index_mut(&mut self, r: std::ops::Range<usize>) -> &mut [Value] {
        debug_assert!(r.end <= self.top);
        &mut self.area[r]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_truncate_and_copy_move_the_top() {
        let mut s = ValueStack::with_capacity(2);
        s.extend_from_slice(&[Value::Int(1), Value::Int(2)]);
        let env = s.open(2, 3);
        env.copy_from_slice(&[Value::Int(3), Value::Int(4), Value::Int(5)]);
        assert_eq!(s.len(), 5);
        s.extend_from_within(2, 3);
        assert_eq!(s.len(), 8);
        assert_eq!(s[5..8], [Value::Int(3), Value::Int(4), Value::Int(5)]);
        s.truncate(9);
        assert_eq!(s.len(), 8);
        s.truncate(1);
        assert_eq!(s.as_mut_slice().len(), 1);
        // Opening below the top drops what was above.
        s.open(0, 1)[0] = Value::Int(9);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0], Value::Int(9));
    }
}
