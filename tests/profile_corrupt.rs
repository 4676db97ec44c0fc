//! Every kind of damaged profile file gives an error that says what and
//! where; none panics, none overflows the stack.

mod profile_fixture;

use proptest::prelude::*;
use stg_run::internal::profile::format::{
    self, FormatErrorKind, Limits, read, read_with_limits, write,
};

fn leb(out: &mut Vec<u8>, v: u64) {
    leb128::write::unsigned(out, v).unwrap();
}

/// A file built field by field: header, modules, cost centres (module id,
/// name bytes), then raw LEB values for the entries.
fn file(version: u32, modules: &[&[u8]], ccs: &[(u64, &[u8])], entries: &[u64]) -> Vec<u8> {
    let mut b = b"prof".to_vec();
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(modules.len() as u32).to_le_bytes());
    b.extend_from_slice(&(ccs.len() as u32).to_le_bytes());
    leb(&mut b, 1000);
    leb(&mut b, 0);
    for m in modules {
        b.extend_from_slice(m);
        b.push(0);
    }
    for (m, n) in ccs {
        leb(&mut b, *m);
        b.extend_from_slice(n);
        b.push(0);
    }
    for &v in entries {
        leb(&mut b, v);
    }
    b
}

/// MAIN (cc 1) with one child `f` (cc 2).
const GOOD_ENTRIES: &[u64] = &[1, 10, 20, 1, 0, 0, 0, 1, 2, 5, 6, 7, 1, 2, 3, 0];

fn good() -> Vec<u8> {
    file(
        2,
        &[b"MAIN", b"Main"],
        &[(1, b"MAIN"), (2, b"f")],
        GOOD_ENTRIES,
    )
}

fn message(bytes: &[u8]) -> String {
    match read(bytes) {
        Ok(p) => panic!("expected an error, read {p:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_good_file_reads() {
    let p = read(&good()).unwrap();
    assert_eq!(p.entries.len(), 2);
    assert_eq!(p.entries[1].counters.curried_calls, 3);
}

#[test]
fn truncation_at_every_offset_is_an_error() {
    let mut names = profile_fixture::fib();
    names.modules[2] = "Mäin✓".into();
    names.cost_centres[6].name = "fíb 𝔣".into();
    for p in [profile_fixture::fib(), profile_fixture::chain(50), names] {
        let bytes = write(&p);
        for cut in 0..bytes.len() {
            let e = read(&bytes[..cut]).expect_err("a truncated file must not read");
            assert!(
                e.offset <= cut,
                "cut {cut}: offset {} past the end",
                e.offset
            );
        }
        assert_eq!(read(&bytes).unwrap(), p);
    }
}

#[test]
fn error_messages() {
    let g = good();
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    cases.push(("empty file", vec![]));
    cases.push(("truncated magic", b"pr".to_vec()));
    cases.push(("bad magic", {
        let mut b = g.clone();
        b[0..4].copy_from_slice(b"PK\x03\x04");
        b
    }));
    cases.push(("short and not a profile", b"hello".to_vec()));
    cases.push((
        "version 1",
        file(1, &[b"MAIN"], &[(1, b"MAIN")], &[1, 0, 0, 0, 0, 0, 0, 0]),
    ));
    cases.push((
        "version 3",
        file(3, &[b"MAIN"], &[(1, b"MAIN")], &[1, 0, 0, 0, 0, 0, 0, 0]),
    ));
    cases.push(("truncated in the header", g[..10].to_vec()));
    cases.push(("truncated in a module name", g[..20].to_vec()));
    cases.push(("truncated in the children", g[..g.len() - 3].to_vec()));
    cases.push(("over-long LEB frequency", {
        let mut b = g[..16].to_vec();
        b.extend_from_slice(&[0xFF; 9]);
        b.push(0x02); // bit 64 set: does not fit
        b.extend_from_slice(&g[18..]);
        b
    }));
    cases.push(("LEB frequency 1 padded to 11 bytes", {
        let mut b = g[..16].to_vec();
        b.push(0x81);
        b.extend_from_slice(&[0x80; 9]);
        b.push(0x00);
        b.extend_from_slice(&g[18..]);
        b
    }));
    cases.push(("over-long LEB ticks", {
        let mut entries = vec![];
        leb(&mut entries, 1);
        entries.extend_from_slice(&[0x80; 10]);
        entries.push(0x01); // 11 bytes: more than 64 bits
        let mut b = file(2, &[b"MAIN"], &[(1, b"MAIN")], &[]);
        b.extend_from_slice(&entries);
        b.extend_from_slice(&[0; 6]);
        b
    }));
    cases.push((
        "cost centre id 9 of 2",
        file(
            2,
            &[b"MAIN", b"Main"],
            &[(1, b"MAIN"), (2, b"f")],
            &[1, 0, 0, 0, 0, 0, 0, 1, 9, 0, 0, 0, 0, 0, 0, 0],
        ),
    ));
    cases.push((
        "cost centre id 0",
        file(2, &[b"MAIN"], &[(1, b"MAIN")], &[0, 0, 0, 0, 0, 0, 0, 0]),
    ));
    cases.push((
        "module id 3 of 2",
        file(
            2,
            &[b"MAIN", b"Main"],
            &[(1, b"MAIN"), (3, b"f")],
            GOOD_ENTRIES,
        ),
    ));
    cases.push((
        "module id 0",
        file(
            2,
            &[b"MAIN", b"Main"],
            &[(0, b"MAIN"), (2, b"f")],
            GOOD_ENTRIES,
        ),
    ));
    cases.push(("bytes after the root", {
        let mut b = g.clone();
        b.extend_from_slice(b"xyz");
        b
    }));
    cases.push((
        "invalid UTF-8 module name",
        file(
            2,
            &[b"MAIN", b"Ma\xFFin"],
            &[(1, b"MAIN"), (2, b"f")],
            GOOD_ENTRIES,
        ),
    ));
    cases.push((
        "invalid UTF-8 cost centre name",
        file(
            2,
            &[b"MAIN", b"Main"],
            &[(1, b"MAIN"), (2, b"\xC3(")],
            GOOD_ENTRIES,
        ),
    ));
    cases.push(("4 billion modules", {
        let mut b = g.clone();
        b[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        b
    }));
    cases.push((
        "a huge child count",
        file(
            2,
            &[b"MAIN"],
            &[(1, b"MAIN")],
            &[1, 0, 0, 0, 0, 0, 0, u64::MAX],
        ),
    ));
    cases.push((
        "no cost centres at all",
        file(2, &[], &[], &[1, 0, 0, 0, 0, 0, 0, 0]),
    ));

    let mut out = String::new();
    for (what, bytes) in &cases {
        out.push_str(&format!("{what}:\n    {}\n", message(bytes)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn the_kinds_are_the_documented_ones() {
    let g = good();
    let k = |b: &[u8]| read(b).unwrap_err().kind;
    assert!(matches!(k(&g[..10]), FormatErrorKind::Truncated(_)));
    // Cutting the last byte leaves 7 bytes for the root's one child, which
    // needs at least 8: caught at the root's child count.
    assert!(matches!(
        k(&g[..g.len() - 1]),
        FormatErrorKind::CountTooLarge {
            count: 1,
            remaining: 7,
            min_each: 8,
            ..
        }
    ));
    let mut b = g.clone();
    b.push(0);
    assert_eq!(read(&b).unwrap_err().offset, g.len());
    assert_eq!(k(&b), FormatErrorKind::TrailingBytes(1));
}

/// `good()` with its frequency (1000, two bytes at offset 16) replaced by
/// `frequency`, raw bytes.
fn with_frequency(frequency: &[u8]) -> Vec<u8> {
    let g = good();
    assert_eq!(&g[16..18], &[0xe8, 0x07]);
    [&g[..16], frequency, &g[18..]].concat()
}

#[test]
fn padded_leb_values_read_up_to_ten_bytes() {
    // 1000 = 0x68 + 7 << 7, padded with zero groups to 10 bytes: read.
    let mut ten = vec![0xe8, 0x87];
    ten.extend_from_slice(&[0x80; 7]);
    ten.push(0x00);
    assert_eq!(read(&with_frequency(&ten)).unwrap(), read(&good()).unwrap());
    // u64::MAX takes all 10 bytes: read.
    let mut max = vec![0xff; 9];
    max.push(0x01);
    assert_eq!(read(&with_frequency(&max)).unwrap().frequency, u64::MAX);

    // The same 1000 padded to 11 and 20 bytes: too long, though it fits.
    for len in [11, 20] {
        let mut long = vec![0xe8, 0x87];
        long.extend(std::iter::repeat_n(0x80, len - 3));
        long.push(0x00);
        let e = read(&with_frequency(&long)).unwrap_err();
        assert_eq!(e.offset, 16);
        assert!(
            matches!(e.kind, FormatErrorKind::LebTooLong { len: l, .. } if l == len),
            "{e:?}"
        );
        assert!(e.to_string().contains(&format!("{len} bytes long")), "{e}");
        assert!(!e.to_string().contains("does not fit"), "{e}");
    }

    // Bits above bit 63, in the tenth byte or after it: too large.
    let mut over = vec![0xff; 9];
    over.push(0x02);
    let mut far = vec![0x80; 10];
    far.push(0x01);
    for bytes in [over, far] {
        let e = read(&with_frequency(&bytes)).unwrap_err();
        assert_eq!(e.offset, 16);
        assert!(matches!(e.kind, FormatErrorKind::LebOverflow(_)), "{e:?}");
    }
}

#[test]
fn a_million_deep_tree_reads_and_a_smaller_limit_rejects_it() {
    let depth = 1_000_000;
    let p = profile_fixture::chain(depth);
    let bytes = write(&p);
    let q = read(&bytes).expect("1,000,000 deep is within the default limit");
    assert_eq!(q.entries.len(), depth);
    assert_eq!(q, p);
    // Exactly at the limit: fine; one below: a clear error.
    assert!(read_with_limits(&bytes, Limits { max_depth: depth }).is_ok());
    let e = read_with_limits(
        &bytes,
        Limits {
            max_depth: depth - 1,
        },
    )
    .unwrap_err();
    assert_eq!(
        e.kind,
        FormatErrorKind::TooDeep {
            entry: (depth - 2) as u64,
            limit: depth - 1
        }
    );
    let small = write(&profile_fixture::chain(5));
    insta::assert_snapshot!(
        read_with_limits(&small, Limits { max_depth: 3 }).unwrap_err().to_string(),
        @"byte 63: the children of call-graph entry 2 would be nested deeper than 3 entries (counting the root), this reader's limit"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random damage to a good file: read may succeed or fail, never panic.
    #[test]
    fn damaged_files_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        extra in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        let mut b = write(&profile_fixture::fib());
        for (ix, byte) in &edits {
            let i = ix.index(b.len());
            b[i] = *byte;
        }
        b.extend_from_slice(&extra);
        if let Ok(p) = read(&b) {
            // Whatever reads is a well-formed profile. (The bytes may differ
            // when written again: a padded LEB128 such as E8 80 00 reads.)
            prop_assert_eq!(read(&format::write(&p)).unwrap(), p);
        }
    }

    #[test]
    fn random_bytes_never_panic(mut b in prop::collection::vec(any::<u8>(), 0..200)) {
        if b.len() >= 8 {
            b[0..8].copy_from_slice(b"prof\x02\0\0\0");
        }
        let _ = read(&b);
    }
}
