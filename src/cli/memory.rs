//! A refused allocation as an error message and an exit status, where
//! Rust would abort.
//!
//! Rust's answer to an allocation the system refuses (under `ulimit -v`,
//! or past what overcommit allows) is `memory allocation of N bytes
//! failed` and an abort: SIGABRT, status 134, as if the tool had crashed.
//! [`ExitOnRefusal`] is the system allocator with one difference: when it
//! would return null, it writes what happened and what to do, removes the
//! temporary files the process is writing (as a signal does, see
//! [`super::signals::exit_now`]), and ends the process with status 1.
//!
//! Except inside [`fallibly`]: there a refusal is returned as Rust's
//! allocator interface has it (null), for `try_reserve` to answer with an
//! error. `stg-run` reserves its stacks and the biographies' table so, and
//! stops cleanly with its profile when the system refuses them; what it
//! allocates otherwise (censuses, the profile's counters, the front end)
//! is small beside the heap and stacks the limits bound, and a refusal
//! there ends the process with the message (its profile is lost, and the
//! message says how to have the run stop at a limit instead).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status after a refused allocation: a failure like any other error.
pub const OUT_OF_MEMORY: i32 = 1;

/// The system allocator, ending the process with a message when an
/// allocation is refused. `tool` and `advice` are written in the message:
/// `tool: out of memory: could not allocate N bytes. advice`.
pub struct ExitOnRefusal {
    pub tool: &'static str,
    pub advice: &'static str,
}

/// Set by the first refusal: a second one (while cleaning up) ends the
/// process without another message.
static REFUSED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Inside [`fallibly`] on this thread.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with refused allocations returned as null (for `try_reserve`
/// to turn into an error) rather than ending the process.
pub fn fallibly<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the flag back as it was, on return or unwinding.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            FALLIBLE.set(self.0);
        }
    }
    let _restore = Restore(FALLIBLE.replace(true));
    f()
}

/// Reserve room in `v` for `len` elements in all, failing rather than
/// aborting or ending the process ([`fallibly`]) when the system has no
/// memory for it.
pub fn try_reserve_len<T>(
    v: &mut Vec<T>,
    len: usize,
) -> Result<(), std::collections::TryReserveError> {
    fallibly(|| v.try_reserve_exact(len.saturating_sub(v.len())))
}

/// A vector of `len` zeros, or `None` when the system refuses the memory.
/// The memory comes zeroed from the system (`calloc`: fresh pages are not
/// written), as `vec![0; len]`'s does, where a `try_reserve` and a
/// `resize` would write every byte.
pub fn zeroed_u32s(len: usize) -> Option<Vec<u32>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u32>(len).ok()?;
    // SAFETY: `layout` has a nonzero size (`len` > 0).
    let p = fallibly(|| unsafe { std::alloc::alloc_zeroed(layout) });
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` was allocated by the global allocator with the layout of
    // `len` `u32`s, all of them initialised (zero is a `u32`), and the
    // vector takes ownership of it.
    Some(unsafe { Vec::from_raw_parts(p.cast::<u32>(), len, len) })
}

/// Is this thread inside [`fallibly`]? (Read only when an allocation was
/// refused; a thread whose locals are gone is not.)
fn refusals_returned() -> bool {
    FALLIBLE.try_with(Cell::get).unwrap_or(false)
}

impl ExitOnRefusal {
    #[cold]
    fn refused(&self, bytes: usize) -> ! {
        if !REFUSED.swap(true, Ordering::SeqCst) {
            let mut message = Message::default();
            message.push(self.tool.as_bytes());
            message.push(b": out of memory: could not allocate ");
            message.push_number(bytes);
            message.push(b" bytes. ");
            message.push(self.advice.as_bytes());
            message.push(b"\n");
            message.write_to_stderr();
            crate::files::remove_live_temporaries();
        }
        // SAFETY: `_exit` ends the process without running anything that
        // could allocate again.
        unsafe { libc::_exit(OUT_OF_MEMORY) }
    }
}

// SAFETY: every method hands the request to `System` unchanged and returns
// its answer, or does not return at all (reading a thread-local `Cell` of
// a `bool`, which allocates nothing, to decide).
unsafe impl GlobalAlloc for ExitOnRefusal {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() && !refusals_returned() {
            self.refused(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() && !refusals_returned() {
            self.refused(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() && !refusals_returned() {
            self.refused(new_size);
        }
        p
    }
}

/// A message made without allocating: bytes past its capacity are dropped.
struct Message {
    bytes: [u8; 1024],
    len: usize,
}

impl Default for Message {
    fn default() -> Self {
        Message {
            bytes: [0; 1024],
            len: 0,
        }
    }
}

impl Message {
    fn push(&mut self, text: &[u8]) {
        let room = self.bytes.len() - self.len;
        let n = text.len().min(room);
        self.bytes[self.len..self.len + n].copy_from_slice(&text[..n]);
        self.len += n;
    }

    fn push_number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.push(&digits[start..]);
    }

    fn write_to_stderr(&self) {
        let mut done = 0;
        while done < self.len {
            let rest = &self.bytes[done..self.len];
            // SAFETY: `rest` is a live buffer of `rest.len()` bytes.
            let n = unsafe { libc::write(2, rest.as_ptr().cast(), rest.len()) };
            if n <= 0 {
                return;
            }
            done += n as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Message, zeroed_u32s};

    #[test]
    fn the_fallible_scope_ends_with_its_closure() {
        use super::{FALLIBLE, fallibly};
        assert!(!FALLIBLE.get());
        assert!(fallibly(|| fallibly(|| FALLIBLE.get()) && FALLIBLE.get()));
        assert!(!FALLIBLE.get());
        let unwound = std::panic::catch_unwind(|| fallibly(|| panic!("inside")));
        assert!(unwound.is_err() && !FALLIBLE.get());
    }

    #[test]
    fn zeroed_vectors_are_zero_or_refused() {
        assert_eq!(zeroed_u32s(0), Some(vec![]));
        assert_eq!(zeroed_u32s(1000), Some(vec![0; 1000]));
        // More bytes than an allocation may have: refused, not an abort.
        assert_eq!(zeroed_u32s(usize::MAX / 2), None);
    }

    #[test]
    fn messages_hold_numbers_and_stop_at_their_capacity() {
        let mut m = Message::default();
        m.push(b"n = ");
        m.push_number(0);
        m.push(b", ");
        m.push_number(usize::MAX);
        assert_eq!(
            &m.bytes[..m.len],
            format!("n = 0, {}", usize::MAX).as_bytes()
        );
        m.push(&[b'x'; 2000]);
        assert_eq!(m.len, 1024);
    }
}
