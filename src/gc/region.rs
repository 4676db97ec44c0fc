//! A region of zeroed words reserved from the system for the heap: its
//! pages become resident only when first written, a range of it can be
//! given back (its words read as zero again), and on Linux a range can ask
//! for transparent huge pages.
//!
//! The heap reserves its whole `--max-heap` at once (nursery, both old
//! spaces and their bitmaps), so that a closure's address is one index
//! into one slice whatever space it is in, and no space is ever moved or
//! copied to grow. Reserving address space costs no memory: a page is
//! resident only once written, so the memory the heap takes is what its
//! spaces have used, never more than the reservation.

use std::ops::{Deref, DerefMut, Range};
use std::ptr::NonNull;

/// `len` words of anonymous memory, zero until written.
pub struct Region {
    ptr: NonNull<u64>,
    len: usize,
}

// SAFETY: a `Region` owns its mapping exclusively, like a `Box<[u64]>`:
// no other value holds its pointer, so moving it to another thread or
// sharing `&Region` (which only reads) is as safe as for a boxed slice.
unsafe impl Send for Region {}
// SAFETY: see `Send`; `&Region` gives only shared reads.
unsafe impl Sync for Region {}

const PAGE_WORDS: usize = 4096 / 8;

impl Region {
    /// A region of no words.
    pub fn empty() -> Region {
        Region {
            ptr: NonNull::dangling(),
            len: 0,
        }
    }

    /// A region of `len` zero words, or `None` when the system refuses to
    /// reserve that much address space.
    pub fn new(len: usize) -> Option<Region> {
        if len == 0 {
            return Some(Region::empty());
        }
        let bytes = len.checked_mul(8)?;
        // SAFETY: a fresh private anonymous mapping at an address of the
        // system's choosing: no memory the program uses is affected. Its
        // pages read as zero until written. MAP_NORESERVE: the address
        // space is reserved, memory is taken only for pages written.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        Some(Region {
            ptr: NonNull::new(p.cast::<u64>())?,
            len,
        })
    }

    /// Give the words of `range` back to the system: they read as zero
    /// afterwards, and take no memory until written again. (Whole pages
    /// are given back; the words of a partial page at either end are
    /// zeroed in place.)
    pub fn release(&mut self, range: Range<usize>) {
        let Range { start, end } = range;
        let end = end.min(self.len);
        if start >= end {
            return;
        }
        let first = start.next_multiple_of(PAGE_WORDS).min(end);
        let last = (end / PAGE_WORDS * PAGE_WORDS).max(first);
        self[start..first].fill(0);
        self[last..end].fill(0);
        if last > first {
            self.discard(first..last);
        }
    }

    /// Give back the whole pages `range` (page-aligned word indices).
    #[cfg(target_os = "linux")]
    fn discard(&mut self, range: Range<usize>) {
        // SAFETY: the range lies inside this mapping (checked by the
        // caller's slicing above) and is page-aligned; `&mut self` means no
        // reference into it is alive. MADV_DONTNEED on private anonymous
        // memory replaces the pages with zero pages: the words change to
        // zero as if written, which is what `release` promises.
        let r = unsafe {
            libc::madvise(
                self.ptr.as_ptr().add(range.start).cast(),
                (range.end - range.start) * 8,
                libc::MADV_DONTNEED,
            )
        };
        if r != 0 {
            // Not given back: zero the words instead, as promised.
            self[range].fill(0);
        }
    }

    /// Elsewhere the pages are kept and zeroed.
    #[cfg(not(target_os = "linux"))]
    fn discard(&mut self, range: Range<usize>) {
        self[range].fill(0);
    }

    /// Ask for transparent huge pages for `range` (Linux; a hint that
    /// changes no contents), so that filling it takes a page fault every
    /// 2 MiB rather than every 4 KiB.
    pub fn advise_huge(&mut self, range: Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            const HUGE_WORDS: usize = (2 << 20) / 8;
            let end = range.end.min(self.len);
            let first = range.start.next_multiple_of(HUGE_WORDS);
            let last = end / HUGE_WORDS * HUGE_WORDS;
            if last > first {
                // SAFETY: the range lies inside this mapping; MADV_HUGEPAGE
                // only advises the kernel how to back the pages and changes
                // no contents. A refusal leaves ordinary pages.
                unsafe {
                    libc::madvise(
                        self.ptr.as_ptr().add(first).cast(),
                        (last - first) * 8,
                        libc::MADV_HUGEPAGE,
                    );
                }
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = range;
    }
}

impl Deref for Region {
    type Target = [u64];
    #[inline(always)]
    fn deref(&self) -> &[u64] {
        // SAFETY: `ptr` is this region's mapping of `len` words (or
        // dangling with `len` 0), readable and written only through this
        // value, alive until `drop`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for Region {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u64] {
        // SAFETY: as for `deref`; `&mut self` makes the slice the only
        // reference into the mapping.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: the mapping was made by `new` with this address and
            // length and is unmapped once, here; no reference into it
            // outlives `self`.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.len * 8);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_until_written_and_zero_after_release() {
        let mut r = Region::new(10 * PAGE_WORDS + 7).unwrap();
        assert!(r.iter().all(|&w| w == 0));
        for (i, w) in r.iter_mut().enumerate() {
            *w = i as u64 + 1;
        }
        // A range with partial pages at both ends.
        r.release(PAGE_WORDS - 3..5 * PAGE_WORDS + 9);
        for (i, &w) in r.iter().enumerate() {
            let released = (PAGE_WORDS - 3..5 * PAGE_WORDS + 9).contains(&i);
            assert_eq!(w, if released { 0 } else { i as u64 + 1 }, "word {i}");
        }
        // Inside one page, and an empty range.
        r.release(3..5);
        assert_eq!(&r[2..6], &[3, 0, 0, 6]);
        r.release(9..9);
        assert_eq!(r[9], 10);
    }

    #[test]
    fn an_empty_region() {
        let r = Region::new(0).unwrap();
        assert!(r.is_empty());
    }
}
