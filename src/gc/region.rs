//! A region of zeroed words reserved from the system for the heap: its
//! pages become resident only when first written, a range of it can be
//! given back (its words read as zero again), on Linux whole pages can be
//! moved from one range to another without being copied or zeroed, and a
//! range can ask for transparent huge pages.
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
/// A transparent huge page's words (2 MiB): a region starts at a multiple
/// of it, so that a range at a multiple of it from the start can be backed
/// by huge pages, and moved a page table entry per huge page.
pub const HUGE_PAGE_WORDS: usize = (2 << 20) / 8;

impl Region {
    /// A region of no words.
    pub fn empty() -> Region {
        Region {
            ptr: NonNull::dangling(),
            len: 0,
        }
    }

    /// A region of `len` zero words, starting at a multiple of
    /// [`HUGE_PAGE_WORDS`] words, or `None` when the system refuses to
    /// reserve that much address space.
    pub fn new(len: usize) -> Option<Region> {
        if len == 0 {
            return Some(Region::empty());
        }
        let bytes = len.checked_mul(8)?;
        let align = HUGE_PAGE_WORDS * 8;
        let reserved = bytes.checked_add(align)?;
        // SAFETY: a fresh private anonymous mapping at an address of the
        // system's choosing: no memory the program uses is affected. Its
        // pages read as zero until written. MAP_NORESERVE: the address
        // space is reserved, memory is taken only for pages written.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                reserved,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        // Keep the aligned `bytes` of it; give the rest of the address
        // space back (whole pages: the mapping and `align` are
        // page-aligned, and so is `bytes`, rounded up by the system).
        let head = (p as usize).next_multiple_of(align) - p as usize;
        let kept = bytes.next_multiple_of(4096);
        // SAFETY: both ranges lie inside the mapping just made, which no
        // reference points into yet; unmapping them leaves
        // `p + head .. p + head + kept` mapped.
        unsafe {
            if head > 0 {
                libc::munmap(p, head);
            }
            let tail = reserved.next_multiple_of(4096) - head - kept;
            if tail > 0 {
                libc::munmap(p.cast::<u8>().add(head + kept).cast(), tail);
            }
        }
        Some(Region {
            // SAFETY: `head < align <= reserved`: inside the mapping.
            ptr: NonNull::new(unsafe { p.cast::<u8>().add(head) }.cast::<u64>())?,
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

    /// Move the whole pages `from` to start at word `to`, without copying
    /// or zeroing them: the words `to..to + from.len()` then hold what
    /// `from` held (their own contents are lost), and `from` reads as zero
    /// and takes no memory. Both ranges page-aligned, inside the region,
    /// and apart. `false`, and nothing changed, where the system will not
    /// (not Linux, a Linux older than 5.7, or ranges not as said): the
    /// caller then gives `from` back instead ([`Region::release`]).
    #[cfg(target_os = "linux")]
    pub fn move_pages(&mut self, from: Range<usize>, to: usize) -> bool {
        let len = from.end.saturating_sub(from.start);
        let fits = |start: usize| start.is_multiple_of(PAGE_WORDS) && start + len <= self.len;
        let apart = to >= from.end || to + len <= from.start;
        if len == 0 || !len.is_multiple_of(PAGE_WORDS) || !fits(from.start) || !fits(to) || !apart {
            return false;
        }
        // SAFETY: both ranges lie inside this mapping (checked above), are
        // page-aligned and do not overlap; `&mut self` means no reference
        // into either is alive. MREMAP_FIXED | MREMAP_DONTUNMAP moves the
        // pages of `from` to `to` (replacing what was mapped there, part
        // of this same reservation) and leaves `from` mapped with no pages
        // behind it: on private anonymous memory it reads as zero, as
        // after `release`. On failure nothing is changed.
        let p = unsafe {
            let base = self.ptr.as_ptr();
            libc::mremap(
                base.add(from.start).cast(),
                len * 8,
                len * 8,
                libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED | libc::MREMAP_DONTUNMAP,
                base.add(to).cast::<libc::c_void>(),
            )
        };
        p != libc::MAP_FAILED
    }

    /// Elsewhere pages are not moved.
    #[cfg(not(target_os = "linux"))]
    pub fn move_pages(&mut self, from: Range<usize>, to: usize) -> bool {
        let _ = (from, to);
        false
    }

    /// Ask for transparent huge pages for `range` (Linux; a hint that
    /// changes no contents), so that filling it takes a page fault every
    /// 2 MiB rather than every 4 KiB.
    pub fn advise_huge(&mut self, range: Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            let end = range.end.min(self.len);
            let first = range.start.next_multiple_of(HUGE_PAGE_WORDS);
            let last = end / HUGE_PAGE_WORDS * HUGE_PAGE_WORDS;
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
                libc::munmap(
                    self.ptr.as_ptr().cast(),
                    (self.len * 8).next_multiple_of(4096),
                );
            }
        }
    }
}

/// Whether this system moves pages ([`Region::move_pages`]): Linux 5.7
/// and later, whose `mremap` takes `MREMAP_DONTUNMAP`. The tests of moves
/// expect them made here and refused elsewhere.
#[cfg(test)]
pub(crate) fn system_moves_pages() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let Ok(release) = std::fs::read_to_string("/proc/sys/kernel/osrelease") else {
        return true;
    };
    let mut numbers = release
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<u32>().ok());
    let version = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    version >= (5, 7)
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
    fn aligned_to_a_huge_page() {
        for len in [1, PAGE_WORDS + 1, 3 * HUGE_PAGE_WORDS + 5] {
            let r = Region::new(len).unwrap();
            assert_eq!(r.as_ptr() as usize % (HUGE_PAGE_WORDS * 8), 0, "{len}");
            assert_eq!(r.len(), len);
        }
    }

    #[test]
    fn moved_pages_keep_their_words_and_leave_zeros() {
        let mut r = Region::new(8 * PAGE_WORDS).unwrap();
        for (i, w) in r.iter_mut().enumerate() {
            *w = i as u64 + 1;
        }
        let moved = r.move_pages(PAGE_WORDS..3 * PAGE_WORDS, 5 * PAGE_WORDS);
        assert_eq!(moved, system_moves_pages(), "moved where the system can");
        if moved {
            for (i, &w) in r.iter().enumerate() {
                let want = match i / PAGE_WORDS {
                    1 | 2 => 0,
                    5 | 6 => (i - 4 * PAGE_WORDS) as u64 + 1,
                    _ => i as u64 + 1,
                };
                assert_eq!(w, want, "word {i}");
            }
            // The pages left behind take writes again.
            r[PAGE_WORDS] = 7;
            assert_eq!(r[PAGE_WORDS], 7);
        }
        // Ranges not as required: refused, nothing changed.
        let before = r.to_vec();
        assert!(!r.move_pages(0..PAGE_WORDS, PAGE_WORDS / 2));
        assert!(!r.move_pages(1..PAGE_WORDS + 1, 4 * PAGE_WORDS));
        assert!(!r.move_pages(0..2 * PAGE_WORDS, 7 * PAGE_WORDS));
        assert!(!r.move_pages(0..0, 4 * PAGE_WORDS));
        assert_eq!(r.to_vec(), before);
    }

    #[test]
    fn an_empty_region() {
        let r = Region::new(0).unwrap();
        assert!(r.is_empty());
    }
}
