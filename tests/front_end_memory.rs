//! The front end's memory is a small multiple of its input (issue 33,
//! "large valid input"): loading a generated program of a few megabytes
//! (parse and check, with the Prelude) allocates at its peak at most
//! [`MAX_RATIO`] times the program's size on top of the program text.
//! Before tokens were streamed it was 38 times, then 11.3 with every name a
//! `String` of its own and the text copied into the source map; with names
//! interned, lists boxed and the text moved it is 7.2, and the whole
//! process's peak RSS on a 50 MB program 9.7 times the input (the issue's
//! target: at most 10; docs/PERFORMANCE.md, "Large valid input").
//!
//! A test binary of its own, so that its counting global allocator sees
//! only this test's allocations. The figures for 5, 20 and 50 MB programs
//! (peak RSS of `stg-run --check`) are in docs/PERFORMANCE.md, "Large valid
//! input", measured with `bench/large_input.sh`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use stg_run::internal::stg::load::load_owned;
use stg_run::internal::stg::source::SourceMap;

/// The system allocator, counting the bytes allocated now and at the peak.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = NOW.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                NOW.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes the front end may hold on top of its input, as a multiple of
/// it: today's 7.2 with a little room. Counted in bytes asked for, so the
/// input itself, the allocator's own overhead and the binary come on top
/// in RSS: this bound keeps `stg-run --check`'s peak RSS within the
/// issue's 10x (9.7x at 50 MB).
const MAX_RATIO: usize = 8;

/// About `bytes` of ten-line functions calling each other in a ring, the
/// shape of `bench/gen_large_program.py`.
fn program(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 400);
    let mut i = 0;
    while s.len() < bytes {
        let _ = write!(
            s,
            "f{i} = {{}} \\r {{xs, acc}} ->\n  case xs {{}} of\n    Nil {{}} -> acc {{}}\n    Cons {{y, ys}} ->\n      let acc2 = \\u {{}} ->\n            case y {{}} of\n              I# {{a#}} -> case acc {{}} of\n                I# {{b#}} -> case +# {{a#, b#}} of s# -> scc \"f{i}\" I# {{s#}}\n      in f{next} {{ys, acc2}}\n",
            next = i + 1
        );
        i += 1;
    }
    let _ = write!(
        s,
        "f{i} = {{}} \\r {{xs, acc}} -> acc {{}}\nmain = {{}} \\u {{}} -> f0 {{nil, zero}}\nnil = {{}} \\r {{}} -> Nil {{}}\nzero = {{}} \\r {{}} -> I# {{0#}}\n"
    );
    s
}

#[test]
fn loading_a_large_program_takes_a_small_multiple_of_its_size() {
    let files = vec![("big.stg".to_string(), program(2_000_000))];
    let size = files[0].1.len();
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut sources = SourceMap::new();
    // The text moves into `sources`, as `stg-run` passes it.
    let loaded = load_owned(&mut sources, files, true, true);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(loaded.is_ok(), "the generated program loads");
    let bindings: usize = loaded
        .as_ref()
        .map(|l| l.program.modules.iter().map(|m| m.bindings.len()).sum())
        .unwrap_or(0);
    assert!(bindings > 5_000, "{bindings} bindings");
    println!(
        "{size} bytes of program: peak {peak} bytes allocated while loading ({:.1}x)",
        peak as f64 / size as f64
    );
    assert!(
        peak <= MAX_RATIO * size,
        "loading {size} bytes allocated {peak} bytes at the peak ({:.1}x, more than {MAX_RATIO}x)",
        peak as f64 / size as f64
    );
}
