//! read(write(p)) == p for random profiles, and the atomic file writer.

mod profile_fixture;

use proptest::prelude::*;
use stg_run::internal::profile::format::{self, read, write};
use stg_run::internal::profile::{CostCentreDecl, Counters, Entry, Profile};

fn counter() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => 0u64..300,
        2 => any::<u64>(),
        1 => Just(u64::MAX),
        1 => Just(1u64 << 63),
        1 => Just((1u64 << 63) - 1),
    ]
}

fn counters() -> impl Strategy<Value = Counters> {
    (
        counter(),
        counter(),
        counter(),
        counter(),
        counter(),
        counter(),
    )
        .prop_map(
            |(ticks, words, tail_calls, strict_calls, lazy_calls, curried_calls)| Counters {
                ticks,
                words,
                tail_calls,
                strict_calls,
                lazy_calls,
                curried_calls,
            },
        )
}

/// Names: any UTF-8 without NUL, including empty and multi-byte.
fn name() -> impl Strategy<Value = String> {
    "[^\u{0}]{0,12}"
}

/// Builds a tree in depth-first order from "how many levels to climb before
/// the next entry": 0 makes the next entry a child of the previous one.
fn tree_from(climbs: &[u8], ccs: &[u32], counters: &[Counters]) -> Vec<Entry> {
    let mut entries = vec![Entry {
        cost_centre: ccs[0],
        counters: counters[0],
        children: vec![],
    }];
    // The path from the root to the last entry.
    let mut path: Vec<usize> = vec![0];
    for (i, &climb) in climbs.iter().enumerate() {
        let keep = path.len().saturating_sub(climb as usize).max(1);
        path.truncate(keep);
        let parent = *path.last().unwrap();
        let index = entries.len();
        entries[parent].children.push(index as u32);
        entries.push(Entry {
            cost_centre: ccs[(i + 1) % ccs.len()],
            counters: counters[(i + 1) % counters.len()],
            children: vec![],
        });
        path.push(index);
    }
    entries
}

prop_compose! {
    fn profile()(
        modules in prop::collection::vec(name(), 1..5),
        cc_names in prop::collection::vec(name(), 1..10),
        cc_modules in prop::collection::vec(any::<prop::sample::Index>(), 10),
        entry_ccs in prop::collection::vec(any::<prop::sample::Index>(), 1..50),
        // Weighted towards small climbs so that deep paths occur.
        climbs in prop::collection::vec(prop_oneof![4 => Just(0u8), 3 => Just(1u8), 2 => 2u8..6, 1 => 6u8..40], 0..400),
        counters in prop::collection::vec(counters(), 1..30),
        frequency in counter(),
        overhead in counter(),
    ) -> Profile {
        let cost_centres: Vec<CostCentreDecl> = cc_names
            .iter()
            .enumerate()
            .map(|(i, n)| CostCentreDecl {
                module: cc_modules[i].index(modules.len()) as u32 + 1,
                name: n.clone(),
            })
            .collect();
        let ccs: Vec<u32> = entry_ccs.iter().map(|ix| ix.index(cost_centres.len()) as u32 + 1).collect();
        Profile {
            frequency,
            overhead,
            entries: tree_from(&climbs, &ccs, &counters),
            modules,
            cost_centres,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn read_inverts_write(p in profile()) {
        let bytes = write(&p);
        let q = read(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&q, &p);
        // And writing again gives the same bytes.
        prop_assert_eq!(write(&q), bytes);
    }

    #[test]
    fn truncating_a_random_profile_is_an_error(p in profile(), cut in any::<prop::sample::Index>()) {
        let bytes = write(&p);
        let at = cut.index(bytes.len());
        prop_assert!(read(&bytes[..at]).is_err());
    }
}

#[test]
fn a_chain_100_000_deep_round_trips() {
    let p = profile_fixture::chain(100_000);
    assert_eq!(read(&write(&p)).unwrap(), p);
}

#[test]
fn the_fib_profile_has_the_documented_layout() {
    let bytes = write(&profile_fixture::fib());
    assert_eq!(&bytes[0..4], b"prof");
    assert_eq!(&bytes[4..8], &2u32.to_le_bytes());
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
    assert_eq!(&bytes[12..16], &7u32.to_le_bytes());
    // frequency 1000 = 0xE8 0x07 in LEB128, overhead 0.
    assert_eq!(&bytes[16..19], &[0xE8, 0x07, 0x00]);
    assert_eq!(&bytes[19..24], b"MAIN\0");
    // First cost centre: module 1, "MAIN".
    let cc_start = 19 + "MAIN\0Prelude\0Main\0".len();
    assert_eq!(&bytes[cc_start..cc_start + 6], b"\x01MAIN\0");
    // The last entry: fib, cc 7, ticks 9000 = 0xA8 0x46, words 50000 =
    // 0xD0 0x86 0x03, ..., curried 12, no children.
    assert_eq!(*bytes.last().unwrap(), 0);
}

#[test]
fn malformed_profiles_are_refused_by_try_write() {
    let mut p = profile_fixture::fib();
    p.entries[2].children.push(4); // entry 4 now has two parents
    assert!(format::try_write(&p).is_err());
    let mut p = profile_fixture::fib();
    p.entries[6].children.push(0); // a cycle
    assert!(format::try_write(&p).is_err());
    let mut p = profile_fixture::fib();
    p.entries[6].children.push(99);
    assert!(format::try_write(&p).is_err());
    let mut p = profile_fixture::fib();
    p.cost_centres[0].name = "MA\0IN".into();
    assert!(format::try_write(&p).is_err());
    let mut p = profile_fixture::fib();
    p.entries[0].cost_centre = 8;
    assert!(format::try_write(&p).is_err());
    let mut p = profile_fixture::fib();
    p.entries[1].children.clear(); // entries 2.. unreachable
    assert!(format::try_write(&p).is_err());
}

#[test]
fn write_file_atomic_writes_the_whole_file_and_leaves_no_temporary() {
    let dir = std::env::temp_dir().join(format!("stg-prof-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fib.pgcl");
    std::fs::write(&path, b"old contents").unwrap();
    let p = profile_fixture::fib();
    format::write_file_atomic(&path, &p).unwrap();
    assert_eq!(read(&std::fs::read(&path).unwrap()).unwrap(), p);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("fib.pgcl")]);
    // A malformed profile leaves the old file alone.
    let mut bad = p.clone();
    bad.entries.clear();
    assert!(format::write_file_atomic(&path, &bad).is_err());
    assert_eq!(read(&std::fs::read(&path).unwrap()).unwrap(), p);
    std::fs::remove_dir_all(&dir).unwrap();
}
