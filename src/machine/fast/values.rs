//! The fast engine's value stack: the constant area and the environments,
//! one contiguous run of values (see the module doc of `fast`).
//!
//! Its top moves down and up as environments are dropped and opened; the
//! values above the top are dead (the collector does not see them) and are
//! kept only as room, so that opening an environment writes its slots in
//! place instead of pushing them one by one.
//!
//! # Room past the high-water mark
//!
//! The area always holds [`ValueStack::room`] slots past the highest top
//! the stack has had (`open` grows it so, and nothing shrinks it). Every
//! environment base the machine holds was at most the top when it was
//! made (an environment is opened at the floor, a scrutinee's copy at its
//! continuation's floor, a continuation keeps its environment's base), so
//! `base + slot` is inside the area for every slot below `room`, which the
//! op loop sets to the largest environment it runs in (`Compiled::max_env`,
//! above every slot its verified tables name): [`ValueStack::get`] and
//! [`ValueStack::set`] index without a bounds check on that ground, and
//! [`ValueStack::reopen`] puts the top back at a continuation's
//! environment's end without growing the area.

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
    /// Slots the area holds past the highest top so far (see the module
    /// doc).
    room: usize,
}

impl ValueStack {
    pub fn with_capacity(n: usize) -> ValueStack {
        ValueStack {
            area: vec![Value::Int(0); n],
            top: 0,
            room: 0,
        }
    }

    /// Keep `room` slots past the highest top from now on (see the module
    /// doc); only ever raised.
    pub fn set_room(&mut self, room: usize) {
        self.room = self.room.max(room);
        let end = self.top;
        if end + self.room > self.area.len() {
            self.grow(end);
        }
    }

    /// The value at `i`.
    ///
    /// # Safety
    /// `i < base + room` for an environment base `base` the machine holds
    /// (see the module doc), or `i` is in the constant area.
    #[inline(always)]
    pub unsafe fn get(&self, i: usize) -> Value {
        debug_assert!(i < self.top, "slot {i} above the top {}", self.top);
        debug_assert!(i < self.area.len());
        // SAFETY: `i` is within the area by the caller's bound and the
        // room kept past the high-water mark (see the module doc).
        unsafe { *self.area.get_unchecked(i) }
    }

    /// Set the value at `i`.
    ///
    /// # Safety
    /// As [`ValueStack::get`].
    #[inline(always)]
    pub unsafe fn set(&mut self, i: usize, v: Value) {
        debug_assert!(i < self.top, "slot {i} above the top {}", self.top);
        debug_assert!(i < self.area.len());
        // SAFETY: as in `get`.
        unsafe { *self.area.get_unchecked_mut(i) = v }
    }

    /// The area's first slot, for a loop that reads and writes slots
    /// through it (as [`ValueStack::get`] and [`ValueStack::set`], with
    /// their bounds) while it writes memory that the compiler cannot tell
    /// apart from the stack's own fields, which it would otherwise load
    /// again after every write. Valid until the area next grows
    /// ([`ValueStack::open`], [`ValueStack::set_room`]).
    #[inline(always)]
    pub fn area_ptr(&mut self) -> *mut Value {
        self.area.as_mut_ptr()
    }

    /// The slots the area holds: the highest top so far, `room` and a
    /// little more (see [`ValueStack::grow`]).
    #[cfg(test)]
    pub fn area_len(&self) -> usize {
        self.area.len()
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

    /// The stack with its top at `end`, the end of an environment whose
    /// base the machine holds (a continuation's, at its return): what was
    /// above is dropped, and the slots below `end` that were above the
    /// top come back with the values they last had (dead ones: the
    /// alternative that runs there binds them before it reads them, and
    /// the collector clears them). No growth: `end` is within the room
    /// past the high-water mark (see the module doc).
    #[inline(always)]
    pub fn reopen(&mut self, end: usize) {
        debug_assert!(end <= self.area.len());
        self.top = end;
    }

    /// The stack with its top at `base + size`: the slots `base..base +
    /// size`, for the caller to fill in every one of them (they may hold
    /// dead values).
    #[inline(always)]
    pub fn open(&mut self, base: usize, size: usize) -> &mut [Value] {
        let end = base + size;
        if end + self.room > self.area.len() {
            self.grow(end);
        }
        self.top = end;
        debug_assert!(base <= end && end <= self.area.len());
        // SAFETY: `base <= end` (no overflow: both are heights of a stack
        // of at most `MAX_HEIGHT` values) and `end + room <= area.len()`,
        // made so just above.
        unsafe { self.area.get_unchecked_mut(base..end) }
    }

    /// Make room up to `end`, `room` past it and a little beyond. The vector's capacity
    /// grows by doubling, but only the slots up to the new room are
    /// written, so that memory never used is never resident.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, end: usize) {
        const SLACK: usize = 256;
        let want = end + self.room + SLACK;
        self.area.reserve(want - self.area.len());
        self.area.resize(want, Value::Int(0));
    }

    /// Reserve memory for `len` slots in all, failing rather than
    /// aborting when the system has none: growing the area up to there
    /// then allocates nothing.
    pub fn try_reserve_len(&mut self, len: usize) -> Result<(), std::collections::TryReserveError> {
        crate::cli::memory::try_reserve_len(&mut self.area, len)
    }

    /// Push the values of `from` (a scrutinee's copy of its environment,
    /// the constant area).
    pub fn extend_from_slice(&mut self, from: &[Value]) {
        let base = self.top;
        self.open(base, from.len()).copy_from_slice(from);
    }

    /// Copy the environment `self[from..from + n]` to `to` (a scrutinee's
    /// copy, at its continuation's floor, `from <= to`), dropping what was
    /// above it; returns the copy's base, `to`. The slots of the original
    /// from `to` on are overwritten: the continuation does not keep them.
    #[inline]
    pub fn copy_env(&mut self, from: usize, n: usize, to: usize) -> usize {
        debug_assert!(from <= to);
        self.open(to, n);
        self.area.copy_within(from..from + n, to);
        to
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
    fn the_area_keeps_room_past_the_highest_top() {
        let mut s = ValueStack::with_capacity(2);
        s.set_room(1000);
        assert!(s.area.len() >= 1000);
        for (base, size) in [(0, 5), (3, 2000), (10, 1), (2003, 7)] {
            s.open(base, size);
            assert!(s.area.len() >= base + size + 1000);
        }
        s.truncate(0);
        // Lowering the top gives nothing back.
        assert!(s.area.len() >= 2010 + 1000);
        assert_eq!(s.copy_env(0, 0, 0), 0);
    }

    #[test]
    fn open_truncate_and_copy_move_the_top() {
        let mut s = ValueStack::with_capacity(2);
        s.extend_from_slice(&[Value::Int(1), Value::Int(2)]);
        let env = s.open(2, 3);
        env.copy_from_slice(&[Value::Int(3), Value::Int(4), Value::Int(5)]);
        assert_eq!(s.len(), 5);
        assert_eq!(s.copy_env(2, 3, 5), 5);
        assert_eq!(s.len(), 8);
        assert_eq!(s[5..8], [Value::Int(3), Value::Int(4), Value::Int(5)]);
        // A copy at a floor inside the original overlaps what the
        // continuation does not keep.
        assert_eq!(s.copy_env(5, 3, 6), 6);
        assert_eq!(s.len(), 9);
        assert_eq!(
            s[5..9],
            [Value::Int(3), Value::Int(3), Value::Int(4), Value::Int(5)]
        );
        // A return opens its environment again to its end.
        s.truncate(6);
        s.reopen(9);
        assert_eq!(s.len(), 9);
        s.truncate(8);
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
