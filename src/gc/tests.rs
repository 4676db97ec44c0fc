//! The heap and collector against small hand-built heaps, and a random
//! mutator checked against a model of its object graph.

use super::*;

/// Roots: one run of values, all handed over whatever the set.
struct R(Vec<Value>);

impl Roots for R {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        f(&mut self.0);
    }
}

/// A 1 MiB heap with room for 100 words made (no roots to keep).
fn heap_with_room() -> Heap {
    let mut h = Heap::new(1 << 20);
    h.reserve(100, false, &mut R(vec![])).unwrap();
    h
}

fn con(n: u32) -> Info {
    Info {
        tag: Tag::Con,
        n,
        index: 0,
    }
}

fn ptr(v: Value) -> Addr {
    match v {
        Value::Ptr(a) => a,
        Value::Int(k) => panic!("not a pointer: {k}"),
    }
}

/// `Tag::from_u8` transmutes the bytes `FIRST..=LAST`: each must be a
/// tag's, and each tag's byte decodes to it; every other byte is no tag.
#[test]
fn every_tag_byte_decodes_to_its_tag() {
    let tags = [
        Tag::Lambda,
        Tag::Con,
        Tag::Pap,
        Tag::Ind,
        Tag::BlackHole,
        Tag::Entered,
        Tag::Forward,
    ];
    for b in 0..=u8::MAX {
        let expected = tags.iter().copied().find(|&t| t as u8 == b);
        assert_eq!(Tag::from_u8(b), expected, "byte {b}");
    }
    for t in tags {
        assert!((Tag::FIRST..=Tag::LAST).contains(&(t as u8)));
    }
    assert_eq!(usize::from(Tag::LAST - Tag::FIRST) + 1, tags.len());
}

#[test]
fn ints_are_not_pointers_and_inds_vanish() {
    let mut h = heap_with_room();
    let garbage = h.alloc(con(1), 0, &[Value::Int(7)]).unwrap();
    let leaf = h
        .alloc(con(2), 3, &[Value::Int(garbage as i64), Value::Int(-1)])
        .unwrap();
    let thunk = h.alloc(con(1), 0, &[Value::Int(0)]).unwrap();
    h.update_with_ind(thunk, leaf);
    let pair = h
        .alloc(con(2), 0, &[Value::Ptr(thunk), Value::Int(42)])
        .unwrap();
    let mut r = R(vec![Value::Ptr(pair)]);
    h.collect(0, &mut r).unwrap();
    let p = ptr(r.0[0]);
    assert_eq!(h.payload(p, 1), Value::Int(42));
    let l = ptr(h.payload(p, 0));
    assert_eq!(h.info(l).unwrap().tag, Tag::Con);
    assert_eq!(h.cc(l), 3);
    assert_eq!(h.payload(l, 0), Value::Int(garbage as i64));
    // pair (4 words) + leaf (4 words); garbage and the indirection are gone.
    assert_eq!(h.used_words(), 8);
    assert_eq!(h.stats.max_residency_bytes, 64);
}

#[test]
fn deref_info_is_deref_then_info() {
    // (And `deref_info_hop`, its copy for the fast engine's integer calls.)
    let mut h = heap_with_room();
    let leaf = h.alloc(con(1), 0, &[Value::Int(5)]).unwrap();
    let one_hop = h.alloc(con(1), 0, &[Value::Int(0)]).unwrap();
    h.update_with_ind(one_hop, leaf);
    let two_hops = h.alloc(con(2), 0, &[Value::Int(0), Value::Int(0)]).unwrap();
    h.update_with_ind(two_hops, one_hop);
    let nullary = h.alloc(con(0), 0, &[]).unwrap();
    // Last, a payload word that would decode as a constructor's info
    // word.
    h.alloc(con(1), 0, &[Value::Int(Tag::Con as i64)]).unwrap();
    // Every address up to past the end (payload words, whose low byte is
    // no tag, and words never written, which are zero) and past the heap.
    let beyond = h.mem.len() as Addr;
    for a in (0..h.used_words() as Addr + 4).chain(beyond - 4..beyond + 4) {
        let d = h.deref(a);
        let expected = h.info(d).map(|i| (d, i));
        assert_eq!(h.deref_info(a), expected, "address {a}");
        assert_eq!(h.deref_info_hop(a), expected, "address {a}, one hop inline");
    }
    assert_eq!(h.deref_info(two_hops).map(|(a, _)| a), Some(leaf));
    assert_eq!(h.deref_info(nullary).map(|(a, _)| a), Some(nullary));
    assert_eq!(h.info(beyond), None);
}

#[test]
fn long_chains_collect_without_recursion() {
    let mut h = Heap::new(1 << 30);
    let mut r = R(vec![Value::Int(0)]);
    for i in 0..200_000 {
        h.reserve(4, false, &mut r).unwrap();
        let tail = r.0[0];
        let a = h.alloc(con(2), 0, &[Value::Int(i), tail]).unwrap();
        r.0[0] = Value::Ptr(a);
    }
    h.collect(0, &mut r).unwrap();
    assert_eq!(h.used_words(), 200_000 * 4);
    assert!(h.stats.gens[0].collections > 0, "minor collections ran");
}

#[test]
fn walk_visits_every_closure_once() {
    let mut h = heap_with_room();
    let a = h.alloc(con(0), 1, &[]).unwrap();
    let b = h
        .alloc(con(3), 2, &[Value::Int(1), Value::Ptr(a), Value::Int(3)])
        .unwrap();
    h.update_with_ind(b, a);
    let c = h
        .alloc(
            Info {
                tag: Tag::Pap,
                n: 2,
                index: 0,
            },
            3,
            &[Value::Ptr(a), Value::Int(0)],
        )
        .unwrap();
    let mut seen = vec![];
    h.walk(&mut |addr, info, cc| seen.push((addr, info.tag, cc)));
    assert_eq!(
        seen,
        vec![(a, Tag::Con, 1), (b, Tag::Ind, 2), (c, Tag::Pap, 3)]
    );
}

#[test]
fn exhaustion_is_an_error() {
    let mut h = Heap::new(64 * 16);
    let mut r = R(vec![]);
    let mut failed = false;
    for _ in 0..1000 {
        if h.reserve(4, false, &mut r).is_err() {
            failed = true;
            break;
        }
        let a = h.alloc(con(2), 0, &[Value::Int(1), Value::Int(2)]).unwrap();
        r.0.push(Value::Ptr(a));
    }
    assert!(failed);
}

/// The empty heap (what is left when the system reserves no address
/// space) fails its first reservation with the heap limit's error, after
/// collecting nothing, as any exhausted heap does.
#[test]
fn an_empty_heap_is_exhausted_at_once() {
    let (mem, bits) = (region::Region::empty(), region::Region::empty());
    let mut h = Heap::in_regions(mem, bits, (0, 0, 0), 0, None);
    let mut r = R(vec![]);
    assert!(h.reserve(4, false, &mut r).is_err());
    assert!(h.reserve(4, true, &mut r).is_err());
}

/// Fill the nursery with garbage until a minor collection has happened,
/// then fill it again (overwriting whatever the collection left there).
fn churn(h: &mut Heap, r: &mut R) {
    let minors = h.stats.gens[0].collections;
    while h.stats.gens[0].collections == minors {
        h.reserve(3, false, r).unwrap();
        h.alloc(con(1), 9, &[Value::Int(-1)]).unwrap();
    }
    while h.free_words() >= 3 {
        h.alloc(con(1), 9, &[Value::Int(-1)]).unwrap();
    }
}

/// Fill the nursery with garbage up to its last `age_window` words, where
/// the closures allocated are aged at their first survival.
fn fill_until_the_age_window(h: &mut Heap, r: &mut R) {
    while h.hp < h.nursery - h.age_window {
        h.reserve(3, false, r).unwrap();
        h.alloc(con(1), 9, &[Value::Int(-1)]).unwrap();
    }
}

/// Where a closure is: in the nursery, aged (in a survivor space) or old.
#[derive(Debug, PartialEq)]
enum Space {
    Nursery,
    Aged,
    Old,
}

fn space(h: &Heap, a: Addr) -> Space {
    let a = a as usize;
    if a < h.nursery {
        Space::Nursery
    } else if a < h.young_end {
        assert!(h.aged.contains(&a), "{a} is in the aged closures");
        Space::Aged
    } else {
        Space::Old
    }
}

#[test]
fn a_recent_closure_is_aged_at_its_first_survival_and_promoted_at_its_second() {
    let mut h = Heap::new(64 << 20);
    let mut r = R(vec![]);
    h.reserve(3, false, &mut r).unwrap();
    // Allocated early in the period: promoted at its first survival.
    let early = h.alloc(con(1), 2, &[Value::Int(20)]).unwrap();
    r.0.push(Value::Ptr(early));
    fill_until_the_age_window(&mut h, &mut r);
    let a = h.alloc(con(1), 1, &[Value::Int(10)]).unwrap();
    r.0.push(Value::Ptr(a));
    assert_eq!(space(&h, a), Space::Nursery);
    churn(&mut h, &mut r);
    let (early, a) = (ptr(r.0[0]), ptr(r.0[1]));
    assert_eq!(
        space(&h, early),
        Space::Old,
        "allocated early: promoted at once"
    );
    assert_eq!(space(&h, a), Space::Aged, "one survival: still young");
    assert_eq!(h.stats.bytes_promoted, 24);
    churn(&mut h, &mut r);
    let a = ptr(r.0[1]);
    assert_eq!(space(&h, a), Space::Old, "two survivals: promoted");
    assert_eq!(h.stats.bytes_promoted, 48);
    assert_eq!((h.cc(a), h.payload(a, 0)), (1, Value::Int(10)));
    assert_eq!((h.cc(early), h.payload(early, 0)), (2, Value::Int(20)));
}

#[test]
fn a_major_collection_ages_the_nursery_and_a_census_one_promotes_all() {
    let mut h = heap_with_room();
    let mut r = R(vec![]);
    let a = h.alloc(con(1), 1, &[Value::Int(10)]).unwrap();
    r.0.push(Value::Ptr(a));
    h.major(&mut r, true);
    let a = ptr(r.0[0]);
    assert_eq!(space(&h, a), Space::Aged);
    h.major(&mut r, true);
    let a = ptr(r.0[0]);
    assert_eq!(space(&h, a), Space::Old);
    // An old closure made to point at a nursery closure: the next major
    // collection ages it and remembers the old word; the one after
    // promotes it.
    h.reserve(3, false, &mut r).unwrap();
    let b = h.alloc(con(1), 2, &[Value::Int(20)]).unwrap();
    h.set_payload(a, 0, Value::Ptr(b));
    assert_eq!(h.remembered, vec![a]);
    h.major(&mut r, true);
    let a = ptr(r.0[0]);
    let b = ptr(h.payload(a, 0));
    assert_eq!(space(&h, b), Space::Aged);
    assert_eq!(h.remembered_words, vec![a + 2]);
    h.major(&mut r, true);
    let a = ptr(r.0[0]);
    let b = ptr(h.payload(a, 0));
    assert_eq!((space(&h, a), space(&h, b)), (Space::Old, Space::Old));
    assert_eq!((h.cc(b), h.payload(b, 0)), (2, Value::Int(20)));
    // A census's collection leaves nothing young.
    h.reserve(3, false, &mut r).unwrap();
    let c = h.alloc(con(1), 3, &[Value::Int(30)]).unwrap();
    r.0.push(Value::Ptr(c));
    h.major(&mut r, true);
    assert_eq!(space(&h, ptr(r.0[1])), Space::Aged);
    h.collect(0, &mut r).unwrap();
    assert_eq!(space(&h, ptr(r.0[1])), Space::Old);
    assert!(h.aged.is_empty() && h.remembered_words.is_empty());
}

#[test]
fn a_root_not_written_since_the_last_collection_is_left_pointing_to_the_old_generation() {
    // A closure aged, then updated (while aged: no barrier) to a nursery
    // value. A minor collection that is handed a root to it promotes the
    // indirection rather than short-circuit the root to the value it
    // ages: an engine hands that root over again only if it was written
    // since, or left pointing young (`Roots::visit_young_roots`).
    let mut h = heap_with_room();
    let mut r = R(vec![]);
    let thunk = h.alloc(con(1), 1, &[Value::Int(0)]).unwrap();
    r.0.push(Value::Ptr(thunk));
    h.reserve(3, true, &mut r).unwrap();
    let thunk = ptr(r.0[0]);
    assert_eq!(space(&h, thunk), Space::Aged);
    let value = h.alloc(con(1), 2, &[Value::Int(5)]).unwrap();
    h.update_with_ind(thunk, value);
    assert!(h.remembered.is_empty());
    h.reserve(3, true, &mut r).unwrap();
    let root = ptr(r.0[0]);
    assert_eq!(space(&h, root), Space::Old);
    assert_eq!(h.info(root).unwrap().tag, Tag::Ind);
    let v = h.deref(root);
    assert_eq!(space(&h, v), Space::Aged);
    assert_eq!((h.cc(v), h.payload(v, 0)), (2, Value::Int(5)));
    // An indirection within the nursery is still short-circuited.
    let young_thunk = h.alloc(con(1), 3, &[Value::Int(0)]).unwrap();
    let young_value = h.alloc(con(1), 4, &[Value::Int(6)]).unwrap();
    h.update_with_ind(young_thunk, young_value);
    r.0.push(Value::Ptr(young_thunk));
    h.reserve(3, true, &mut r).unwrap();
    let v = ptr(r.0[1]);
    assert_eq!((space(&h, v), h.cc(v)), (Space::Aged, 4));
}

#[test]
fn an_old_thunk_updated_to_a_young_value_keeps_it_alive_aged_then_promoted() {
    let mut h = Heap::new(64 << 20);
    let mut r = R(vec![]);
    h.reserve(3, false, &mut r).unwrap();
    let thunk = h.alloc(con(1), 1, &[Value::Int(0)]).unwrap();
    r.0.push(Value::Ptr(thunk));
    churn(&mut h, &mut r);
    churn(&mut h, &mut r);
    let old = ptr(r.0[0]);
    assert_eq!(space(&h, old), Space::Old);
    // Updated to a young value reachable only through it: aged by the
    // next minor collection (the update's barrier remembered the thunk),
    // then kept by the word that collection remembered, and promoted.
    h.reserve(4, false, &mut r).unwrap();
    fill_until_the_age_window(&mut h, &mut r);
    h.reserve(4, false, &mut r).unwrap();
    let value = h
        .alloc(con(2), 2, &[Value::Int(41), Value::Int(42)])
        .unwrap();
    h.update_with_ind(old, value);
    churn(&mut h, &mut r);
    let v = h.deref(old);
    assert_eq!(space(&h, v), Space::Aged);
    assert_eq!(h.remembered_words, vec![old + 2]);
    churn(&mut h, &mut r);
    let v = h.deref(old);
    assert_eq!(space(&h, v), Space::Old);
    assert_eq!((h.cc(v), h.payload(v, 1)), (2, Value::Int(42)));
    assert!(h.remembered_words.is_empty());
}

#[test]
fn a_promoted_closure_keeps_the_closure_aged_with_it() {
    // a survives one minor collection (aged); then b, young, is put in a's
    // field (no barrier: a is young). The next minor collection promotes
    // a and ages b: a's word is remembered, and b, reachable only
    // through it, survives the one after, promoted.
    // (`--gc-stress` reservations: each is a minor collection.)
    let mut h = Heap::new(64 << 20);
    let mut r = R(vec![]);
    h.reserve(3, false, &mut r).unwrap();
    let a = h.alloc(con(1), 1, &[Value::Int(0)]).unwrap();
    r.0.push(Value::Ptr(a));
    h.reserve(3, true, &mut r).unwrap();
    let a = ptr(r.0[0]);
    assert_eq!(space(&h, a), Space::Aged);
    let b = h.alloc(con(1), 2, &[Value::Int(7)]).unwrap();
    h.set_payload(a, 0, Value::Ptr(b));
    assert!(h.remembered.is_empty());
    h.reserve(3, true, &mut r).unwrap();
    let a = ptr(r.0[0]);
    let b = ptr(h.payload(a, 0));
    assert_eq!((space(&h, a), space(&h, b)), (Space::Old, Space::Aged));
    assert_eq!(h.remembered_words, vec![a + 2]);
    h.reserve(3, true, &mut r).unwrap();
    let b = ptr(h.payload(a, 0));
    assert_eq!(space(&h, b), Space::Old);
    assert_eq!((h.cc(b), h.payload(b, 0)), (2, Value::Int(7)));
    assert_eq!(h.stats.gens[1].collections, 0, "minor collections only");
}

/// A black hole (or an entered `\s` closure) of 5 words is copied as one
/// of 3 (its payload is dead: its pointer bits were cleared), by a minor
/// collection (aged) and again by a major one (promoted), keeping its tag,
/// lambda and cost centre; the walk steps over it exactly, and its update
/// overwrites the copy with an indirection. A heap that keeps black
/// holes' sizes (for censuses) copies it whole.
#[test]
fn black_holes_are_copied_small_unless_their_sizes_are_kept() {
    for keep in [false, true] {
        for tag in [Tag::BlackHole, Tag::Entered] {
            let mut h = Heap::new(64 << 20);
            if keep {
                h.keep_black_hole_sizes();
            }
            let mut r = R(vec![]);
            h.reserve(20, false, &mut r).unwrap();
            let leaf = h.alloc(con(1), 0, &[Value::Int(5)]).unwrap();
            let lambda = Info {
                tag: Tag::Lambda,
                n: 3,
                index: 7,
            };
            let free = [Value::Ptr(leaf), Value::Int(1), Value::Ptr(leaf)];
            let thunk = h.alloc(lambda, 9, &free).unwrap();
            h.blackhole(thunk, tag);
            let value = h.alloc(con(1), 4, &[Value::Int(6)]).unwrap();
            r.0 = vec![Value::Ptr(thunk), Value::Ptr(value)];
            let words = if keep { 5 } else { 3 };
            // A minor collection (the first `--gc-stress` reservation):
            // both aged, the leaf dead.
            h.reserve(3, true, &mut r).unwrap();
            assert_eq!(h.stats.gens[0].bytes_copied, (words + 3) * 8);
            // A major collection: both promoted.
            h.collect(0, &mut r).unwrap();
            let (t, v) = (ptr(r.0[0]), ptr(r.0[1]));
            assert_eq!(space(&h, t), Space::Old);
            let info = h.info(t).unwrap();
            assert_eq!((info.tag, info.index, h.cc(t)), (tag, 7, 9));
            assert_eq!(info.size() as u64, words);
            assert_eq!(h.used_words() as u64, words + 3);
            assert_eq!(h.stats.max_residency_bytes, (words + 3) * 8);
            let mut seen = Vec::new();
            h.walk(&mut |a, i, cc| seen.push((a, i.tag, cc)));
            assert_eq!(seen, vec![(t, tag, 9), (v, Tag::Con, 4)]);
            // Its update: an indirection in the copy's words, removed by
            // the next collection.
            h.update_blackhole(t, v);
            assert_eq!(h.deref(t), v);
            h.collect(0, &mut r).unwrap();
            assert_eq!(r.0[0], r.0[1]);
            assert_eq!(h.used_words(), 3);
        }
    }
}

/// Roots with update frames: `others`, then the update frames' closures
/// (`updatees`) apart, as the engines hand them over.
struct Frames {
    others: Vec<Value>,
    updatees: Vec<Value>,
}

impl Roots for Frames {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        f(&mut self.others);
        f(&mut self.updatees);
    }

    fn visit_roots_but_updatees(&mut self, _young: bool, f: &mut dyn FnMut(&mut [Value])) -> bool {
        f(&mut self.others);
        true
    }

    fn visit_updatees(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        f(&mut self.updatees);
    }
}

/// An updatee that something else reaches is copied and its frame moved
/// with it; one that only its frame reaches is not copied, and its frame
/// gets the dead updatee of its lambda, whose update writes nothing but
/// counts the words (the indirection's and the partial application's do
/// nothing). In minor and major collections alike; a heap that keeps its
/// updatees copies both.
#[test]
fn an_updatee_only_its_frame_reaches_is_dead() {
    for keep in [false, true] {
        for major in [false, true] {
            let what = format!("keep={keep} major={major}");
            let mut h = Heap::new(64 << 20);
            if keep {
                h.keep_updatees();
            }
            let mut r = Frames {
                others: vec![],
                updatees: vec![],
            };
            h.reserve(30, false, &mut r).unwrap();
            let lambda = |index| Info {
                tag: Tag::Lambda,
                n: 2,
                index,
            };
            let shared = h
                .alloc(lambda(7), 9, &[Value::Int(1), Value::Int(2)])
                .unwrap();
            let alone = h
                .alloc(lambda(8), 9, &[Value::Int(1), Value::Int(2)])
                .unwrap();
            h.blackhole(shared, Tag::BlackHole);
            h.blackhole(alone, Tag::BlackHole);
            let holder = h.alloc(con(1), 0, &[Value::Ptr(shared)]).unwrap();
            r.others = vec![Value::Ptr(holder)];
            r.updatees = vec![Value::Ptr(shared), Value::Ptr(alone)];
            if major {
                h.collect(0, &mut r).unwrap();
            } else {
                // The first `--gc-stress` reservation: a minor collection.
                h.reserve(3, true, &mut r).unwrap();
            }
            let s = ptr(r.updatees[0]);
            assert_eq!(h.payload(ptr(r.others[0]), 0), Value::Ptr(s), "{what}");
            let bh = |index| (Tag::BlackHole, index);
            let tag_index = |i: Info| (i.tag, i.index);
            assert_eq!(h.info(s).map(tag_index), Some(bh(7)), "{what}");
            let a = ptr(r.updatees[1]);
            // The holder and one or two black holes, 3 words each.
            let copied = if keep { 9 * 8 } else { 6 * 8 };
            assert_eq!(h.stats.bytes_copied, copied, "{what}");
            if keep {
                assert_eq!(h.info(a).map(tag_index), Some(bh(8)), "{what}");
                continue;
            }
            assert_eq!(a, dead_updatee(8), "{what}");
            assert!(h.is_dead_updatee(a) && !h.is_dead_updatee(s), "{what}");
            assert_eq!(h.info(a), None, "{what}");
            assert_eq!(h.updatee_info(a).map(tag_index), Some(bh(8)), "{what}");
            assert_eq!(h.updatee_info(s), h.info(s), "{what}");
            let (hp, allocated) = (h.hp, h.stats.bytes_allocated);
            let pair = [Value::Int(1), Value::Ptr(s)];
            assert!(h.update_blackhole_with_con(a, con(2), 4, &pair), "{what}");
            assert_eq!(h.stats.bytes_allocated, allocated + 4 * 8, "{what}");
            assert_eq!(h.hp, hp, "{what}: no fresh words");
            h.update_blackhole(a, s);
            h.update_with_ind(a, s);
            assert_eq!((h.hp, h.used_words()), (hp, h.used_words()), "{what}");
            // A later collection leaves the dead updatee as it is.
            h.collect(0, &mut r).unwrap();
            assert_eq!(r.updatees[1], Value::Ptr(dead_updatee(8)), "{what}");
        }
    }
}

/// Rule 16 in place: a black hole of the constructor's size becomes the
/// constructor (header, cost centre, fields and their pointer bits),
/// counted as allocated but taking no fresh words; one of another size,
/// or of more than two payload words, or a heap that keeps biographies,
/// is left alone (the caller allocates). An old black hole written to
/// point to a young closure is remembered.
#[test]
fn a_black_hole_of_the_constructors_size_is_updated_in_place() {
    let lambda = |n| Info {
        tag: Tag::Lambda,
        n,
        index: 7,
    };
    let mut h = heap_with_room();
    let leaf = h.alloc(con(1), 0, &[Value::Int(5)]).unwrap();
    // Thunks of 0, 1 and 2 free variables, made black holes.
    let t0 = h.alloc(lambda(0), 9, &[]).unwrap();
    let t1 = h.alloc(lambda(1), 9, &[Value::Ptr(leaf)]).unwrap();
    let t2 = h
        .alloc(lambda(2), 9, &[Value::Ptr(leaf), Value::Ptr(leaf)])
        .unwrap();
    let t3 = h
        .alloc(lambda(3), 9, &[Value::Int(1), Value::Int(2), Value::Int(3)])
        .unwrap();
    for t in [t0, t1, t2, t3] {
        h.blackhole(t, Tag::BlackHole);
    }
    let (hp, allocated) = (h.hp, h.stats.bytes_allocated);
    let i_hash = |x| [Value::Int(x)];
    // An `I#` fits the black holes of 0 and 1 free variables, a pair
    // that of 2, and nothing fits 3 (nor a pair 0 or 1, nor an `I#` 2).
    assert!(!h.update_blackhole_with_con(t2, con(1), 4, &i_hash(6)));
    assert!(!h.update_blackhole_with_con(t1, con(2), 4, &[Value::Int(1); 2]));
    assert!(!h.update_blackhole_with_con(t3, con(3), 4, &[Value::Int(1); 3]));
    assert!(h.update_blackhole_with_con(t0, con(1), 4, &i_hash(6)));
    assert!(h.update_blackhole_with_con(t1, con(0), 4, &[]));
    let pair = [Value::Int(8), Value::Ptr(leaf)];
    assert!(h.update_blackhole_with_con(t2, con(2), 4, &pair));
    // A closure that is no black hole (any more) is left alone.
    assert!(!h.update_blackhole_with_con(t0, con(1), 4, &i_hash(6)));
    assert_eq!(h.hp, hp, "no fresh words");
    assert_eq!(h.stats.bytes_allocated, allocated + (3 + 3 + 4) * 8);
    assert_eq!(
        (h.info(t0), h.cc(t0), h.payload(t0, 0)),
        (Some(con(1)), 4, Value::Int(6))
    );
    assert_eq!(
        (h.info(t1), h.payload(t1, 0)),
        (Some(con(0)), Value::Int(0))
    );
    assert_eq!(
        (h.info(t2), h.payload(t2, 0), h.payload(t2, 1)),
        (Some(con(2)), pair[0], pair[1])
    );
    // They are what they say to the collector too.
    let mut r = R(vec![Value::Ptr(t0), Value::Ptr(t1), Value::Ptr(t2)]);
    h.collect(0, &mut r).unwrap();
    let t2 = ptr(r.0[2]);
    assert_eq!(h.payload(ptr(h.payload(t2, 1)), 0), Value::Int(5));
    assert_eq!(h.payload(ptr(r.0[0]), 0), Value::Int(6));
    assert_eq!(h.used_words(), 3 + 3 + 4 + 3);

    // An old black hole, updated to point to a young closure: remembered
    // (`collect` promotes everything).
    h.reserve(4, false, &mut r).unwrap();
    let thunk = h
        .alloc(lambda(2), 9, &[Value::Int(0), Value::Int(0)])
        .unwrap();
    let mut r = R(vec![Value::Ptr(thunk)]);
    h.collect(0, &mut r).unwrap();
    let old = ptr(r.0[0]);
    assert_eq!(space(&h, old), Space::Old);
    h.blackhole(old, Tag::BlackHole);
    h.reserve(3, false, &mut r).unwrap();
    let young = h.alloc(con(1), 0, &[Value::Int(3)]).unwrap();
    assert_eq!(space(&h, young), Space::Nursery);
    assert!(h.remembered.is_empty());
    assert!(h.update_blackhole_with_con(old, con(2), 4, &[Value::Int(1), Value::Ptr(young)]));
    assert_eq!(h.remembered, vec![old]);

    // With biographies the thunk and its value are told apart: no.
    let mut h = heap_with_room();
    h.keep_biographies();
    let t = h.alloc(lambda(1), 9, &[Value::Int(0)]).unwrap();
    h.blackhole(t, Tag::BlackHole);
    assert!(!h.update_blackhole_with_con(t, con(1), 4, &i_hash(6)));
}

#[test]
fn a_request_larger_than_the_nursery_goes_to_the_old_generation() {
    let mut h = Heap::new(64 << 20);
    let mut r = R(vec![]);
    h.reserve(3, false, &mut r).unwrap();
    let young = h.alloc(con(1), 5, &[Value::Int(5)]).unwrap();
    r.0.push(Value::Ptr(young));
    let n = NURSERY_WORDS + 10;
    h.reserve(closure_words(n), false, &mut r).unwrap();
    let young = ptr(r.0[0]);
    let big = h
        .alloc_with(con(n as u32), 6, n, |i| {
            if i == n - 1 {
                Value::Ptr(young)
            } else {
                Value::Int(i as i64)
            }
        })
        .unwrap();
    assert_eq!(space(&h, big), Space::Old);
    r.0.push(Value::Ptr(big));
    // Back in the nursery: a young closure the big one then points to.
    h.reserve(3, false, &mut r).unwrap();
    let fresh = h.alloc(con(1), 7, &[Value::Int(7)]).unwrap();
    assert!((fresh as usize) < h.nursery);
    h.set_payload(big, 0, Value::Ptr(fresh));
    r.0.truncate(1);
    r.0.push(Value::Ptr(big));
    churn(&mut h, &mut r);
    let big = ptr(r.0[1]);
    assert_eq!(h.cc(ptr(h.payload(big, 0))), 7);
    assert_eq!(h.cc(ptr(h.payload(big, n - 1))), 5);
    assert_eq!(h.payload(big, 1), Value::Int(1));
    h.collect(0, &mut r).unwrap();
    let big = ptr(r.0[1]);
    assert_eq!(h.cc(ptr(h.payload(big, 0))), 7);
}

/// The model of a random mutator: node `i` has a closure whose cost-centre
/// word is `i`, and these fields (an `Int#` or another node).
#[derive(Clone, Debug, PartialEq)]
enum Field {
    Int(i64),
    Node(u32),
}

/// The graph reachable from the roots, read from the heap (through
/// indirections): node id → fields, in a canonical order.
fn read_graph(h: &Heap, roots: &[Value]) -> Vec<(u32, Vec<Field>)> {
    let mut seen = std::collections::BTreeMap::new();
    let mut todo: Vec<Addr> = roots
        .iter()
        .filter_map(|v| match v {
            Value::Ptr(a) => Some(*a),
            Value::Int(_) => None,
        })
        .collect();
    while let Some(a) = todo.pop() {
        let a = h.deref(a);
        let id = h.cc(a);
        if seen.contains_key(&id) {
            continue;
        }
        let info = h.info(a).unwrap();
        let fields: Vec<Field> = (0..info.n as usize)
            .map(|i| match h.payload(a, i) {
                Value::Int(k) => Field::Int(k),
                Value::Ptr(p) => {
                    todo.push(p);
                    Field::Node(h.cc(h.deref(p)))
                }
            })
            .collect();
        seen.insert(id, fields);
    }
    seen.into_iter().collect()
}

/// The same graph from the model.
fn model_graph(nodes: &[Vec<Field>], redirect: &[u32], roots: &[u32]) -> Vec<(u32, Vec<Field>)> {
    let follow = |mut i: u32| {
        while redirect[i as usize] != i {
            i = redirect[i as usize];
        }
        i
    };
    let mut seen = std::collections::BTreeMap::new();
    let mut todo: Vec<u32> = roots.to_vec();
    while let Some(i) = todo.pop() {
        let i = follow(i);
        if seen.contains_key(&i) {
            continue;
        }
        let fields: Vec<Field> = nodes[i as usize]
            .iter()
            .map(|f| match f {
                Field::Node(j) => {
                    todo.push(*j);
                    Field::Node(follow(*j))
                }
                Field::Int(k) => Field::Int(*k),
            })
            .collect();
        seen.insert(i, fields);
    }
    seen.into_iter().collect()
}

/// A random mutator (allocating, updating old and young closures to point
/// at others, filling fields, dropping roots, sometimes allocating more
/// than the nursery holds) in a small heap under stress and without:
/// after every step the graph reachable from the roots is the model's.
#[test]
fn a_random_mutator_sees_the_graph_it_built() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    for round in 0..6 {
        let stress = round % 2 == 1;
        let mut h = Heap::new(if round < 4 { 96 << 10 } else { 4 << 20 });
        let mut r = R(vec![]);
        let mut root_ids: Vec<u32> = vec![];
        let mut nodes: Vec<Vec<Field>> = vec![];
        let mut redirect: Vec<u32> = vec![];
        for step in 0..3000 {
            match next(10) {
                0..=5 => {
                    let n = if next(50) == 0 {
                        300 + next(3000) as usize
                    } else {
                        next(4) as usize
                    };
                    if h.reserve(closure_words(n), stress, &mut r).is_err() {
                        // Full: drop every other root and go on.
                        let keep: Vec<usize> = (0..r.0.len()).step_by(2).collect();
                        r.0 = keep.iter().map(|&i| r.0[i]).collect();
                        root_ids = keep.iter().map(|&i| root_ids[i]).collect();
                        continue;
                    }
                    let id = nodes.len() as u32;
                    let fields: Vec<Field> = (0..n)
                        .map(|_| {
                            if !r.0.is_empty() && next(2) == 0 {
                                Field::Node(root_ids[next(r.0.len() as u64) as usize])
                            } else {
                                Field::Int(next(1000) as i64)
                            }
                        })
                        .collect();
                    let vals: Vec<Value> = fields
                        .iter()
                        .map(|f| match f {
                            Field::Int(k) => Value::Int(*k),
                            Field::Node(j) => {
                                let k = root_ids.iter().position(|x| x == j).unwrap();
                                r.0[k]
                            }
                        })
                        .collect();
                    let a = h.alloc(con(n as u32), id, &vals).unwrap();
                    nodes.push(fields);
                    redirect.push(id);
                    r.0.push(Value::Ptr(a));
                    root_ids.push(id);
                }
                6 if r.0.len() >= 2 => {
                    // Update one root's closure to point at another's
                    // (an indirection, as rules 16 and 17a make).
                    let i = next(r.0.len() as u64) as usize;
                    let j = next(r.0.len() as u64) as usize;
                    let (a, b) = (h.deref(ptr(r.0[i])), h.deref(ptr(r.0[j])));
                    let (ia, ib) = (h.cc(a), h.cc(b));
                    if ia != ib && redirect[ib as usize] == ib {
                        h.update_with_ind(a, b);
                        redirect[ia as usize] = ib;
                    }
                }
                7 if !r.0.is_empty() => {
                    // Fill a field, as a letrec does.
                    let i = next(r.0.len() as u64) as usize;
                    let j = next(r.0.len() as u64) as usize;
                    let a = h.deref(ptr(r.0[i]));
                    let id = h.cc(a) as usize;
                    if !nodes[id].is_empty() {
                        let k = next(nodes[id].len() as u64) as usize;
                        h.set_payload(a, k, r.0[j]);
                        nodes[id][k] = Field::Node(root_ids[j]);
                    }
                }
                8 if !r.0.is_empty() => {
                    let i = next(r.0.len() as u64) as usize;
                    r.0.swap_remove(i);
                    root_ids.swap_remove(i);
                }
                9 if next(20) == 0 => {
                    h.collect(0, &mut r).unwrap();
                }
                _ => {}
            }
            if step % 97 == 0 || step == 2999 {
                assert_eq!(
                    read_graph(&h, &r.0),
                    model_graph(&nodes, &redirect, &root_ids),
                    "round {round}, step {step}"
                );
            }
        }
        if round < 4 {
            // The small heap collects, both generations.
            assert!(h.stats.gens[0].collections > 0 && h.stats.gens[1].collections > 0);
        }
    }
}

/// Cons a list of `n` cells (`I# k` heads, `k` from `from` up) in front
/// of the list at root `root`, collecting as the heap needs.
fn cons_cells(h: &mut Heap, r: &mut R, root: usize, from: i64, n: i64) {
    for k in from..from + n {
        h.reserve(closure_words(2), false, r).unwrap();
        let cell = h.alloc(con(2), 1, &[Value::Int(k), r.0[root]]).unwrap();
        r.0[root] = Value::Ptr(cell);
    }
}

/// The heads of the list at `v`, first to last (its end an `Int#`).
fn list_heads(h: &Heap, mut v: Value) -> Vec<i64> {
    let mut heads = vec![];
    while let Value::Ptr(a) = v {
        match h.payload(a, 0) {
            Value::Int(k) => heads.push(k),
            Value::Ptr(p) => panic!("a head is a pointer: {p}"),
        }
        v = h.payload(a, 1);
    }
    heads
}

#[test]
fn pages_moved_between_the_old_spaces_keep_the_heap_exact() {
    // Large enough for whole huge pages to move: its pages are reserved,
    // and take memory only as the lists below fill them.
    let mut h = Heap::new(1 << 30);
    assert_eq!(h.moves_pages, cfg!(target_os = "linux"));
    let mut r = R(vec![Value::Int(0), Value::Int(0)]);
    let mut recycled = 0;
    let n = 600_000;
    // Two lists grown side by side (majors fall while both are live),
    // then the second dropped and a third grown in its place: promotions
    // and major collections write into pages the last major collection
    // moved, whose words are stale closures.
    for (round, root) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        if round == 1 && root == 0 {
            r.0[1] = Value::Int(0);
        }
        let from = round * 10 * n + root as i64 * n;
        for chunk in 0..4 {
            cons_cells(&mut h, &mut r, root, from + chunk * n / 4, n / 4);
            if h.old_resident > h.old_top.next_multiple_of(HUGE_PAGE_WORDS) {
                recycled += 1;
            }
        }
        let heads = list_heads(&h, r.0[root]);
        let want: Vec<i64> = (from..from + n).rev().collect();
        assert_eq!(heads[..n as usize], want[..], "round {round}, list {root}");
        if root == 0 {
            continue;
        }
        h.collect(0, &mut r).unwrap();
        let mut cells = 0;
        h.walk(&mut |_, info, _| {
            assert_eq!(info.tag, Tag::Con);
            cells += 1;
        });
        let lists: usize = r.0.iter().map(|&v| list_heads(&h, v).len()).sum();
        assert_eq!(cells, lists, "only the live cells, round {round}");
    }
    // A major collection besides the two censuses.
    assert!(h.stats.gens[1].collections >= 3, "{:?}", h.stats.gens[1]);
    if crate::gc::region::system_moves_pages() {
        assert!(h.moves_pages, "every move was made");
        assert!(recycled > 0, "pages were moved ahead of the old generation");
    }
}

/// A block taken at once and filled with closures holds what the same
/// closures allocated one by one do: words, pointer bits, the allocation
/// pointer and the bytes allocated.
#[test]
fn a_block_filled_with_closures_is_those_closures_allocated_one_by_one() {
    let lam = |n: u32| Info {
        tag: Tag::Lambda,
        n,
        index: 3,
    };
    // A pointer to a closure allocated first in both heaps.
    let (mut one, mut block) = (heap_with_room(), heap_with_room());
    let target = one.alloc(con(1), 1, &[Value::Int(1)]).unwrap();
    assert_eq!(block.alloc(con(1), 1, &[Value::Int(1)]).unwrap(), target);
    let closures: [&[Value]; 3] = [
        &[],
        &[Value::Int(-4), Value::Ptr(target)],
        &[Value::Ptr(target)],
    ];
    let start = one.next_addr() as usize;
    for fields in closures {
        let n = fields.len();
        one.alloc_with(lam(n as u32), 9, n, |i| fields[i]).unwrap();
    }
    let words: usize = closures.iter().map(|f| closure_words(f.len())).sum();
    // SAFETY: the heap has room for 100 words; the loop writes every word.
    let mut b = unsafe { block.take_block(words) };
    assert_eq!(b.addr() as usize, start);
    let mut off = 0;
    for fields in closures {
        // SAFETY: each closure within the block (its words summed above).
        unsafe {
            b.header(off, lam(fields.len() as u32).encode(), 9);
            for (i, v) in fields.iter().enumerate() {
                b.field(off + 2 + i, *v);
            }
        }
        off += closure_words(fields.len());
    }
    assert_eq!(block.next_addr(), one.next_addr());
    assert_eq!(block.stats.bytes_allocated, one.stats.bytes_allocated);
    assert_eq!(
        block.mem[start..start + words],
        one.mem[start..start + words]
    );
    for i in start..start + words {
        assert_eq!(block.heap_word_bit(i), one.heap_word_bit(i), "word {i}");
    }
    assert!(block.heap_word_bit(start + 3 + 3) && !block.heap_word_bit(start + 3 + 2));
}

/// A compacting major collection as `make_room` runs one: the minor
/// collection that empties the nursery, then the old generation slid.
fn compacting_major(h: &mut Heap, r: &mut R) {
    h.settle();
    h.minor_copy(r);
    h.compact(r);
}

/// A list of `len` cells built in the heap, the newest the root `r.0[0]`:
/// cell `i` holds a box of `Int(i)` and the next older cell, in that
/// order, or the other way round when `tail_first`.
fn build_list(h: &mut Heap, r: &mut R, len: i64, tail_first: bool) {
    r.0.insert(0, Value::Int(0));
    for i in 0..len {
        h.reserve(4 + 3, false, r).unwrap();
        let head = Value::Ptr(h.alloc(con(1), 6, &[Value::Int(i)]).unwrap());
        let tail = r.0[0];
        let fields = if tail_first {
            [tail, head]
        } else {
            [head, tail]
        };
        r.0[0] = Value::Ptr(h.alloc(con(2), 7, &fields).unwrap());
    }
}

/// The list at `root`, checked cell by cell: `len` cells, newest first.
fn check_list(h: &Heap, root: Value, len: i64, tail_first: bool) {
    let mut v = root;
    for i in (0..len).rev() {
        let a = ptr(v);
        assert_eq!((h.info(a).map(|i| i.tag), h.cc(a)), (Some(Tag::Con), 7));
        let (head, tail) = if tail_first { (1, 0) } else { (0, 1) };
        let b = ptr(h.payload(a, head));
        assert_eq!((h.cc(b), h.payload(b, 0)), (6, Value::Int(i)), "cell {i}");
        v = h.payload(a, tail);
    }
    assert_eq!(v, Value::Int(0), "the list's end");
}

#[test]
fn a_compacting_major_collection_slides_the_live_closures_down() {
    let mut h = heap_with_room();
    let mut r = R(vec![]);
    // Two lists promoted together, their cells interleaved in the old
    // generation; then the second dies.
    r.0 = vec![Value::Int(0), Value::Int(0)];
    for i in 0..1000 {
        for list in [0, 1] {
            h.reserve(4, false, &mut r).unwrap();
            let cell = h.alloc(con(2), 7, &[Value::Int(i), r.0[list]]);
            let cell = cell.unwrap();
            r.0[list] = Value::Ptr(cell);
        }
    }
    h.collect(0, &mut r).unwrap();
    assert_eq!(h.old_top - h.old_base, 2000 * 4);
    r.0.truncate(1);
    compacting_major(&mut h, &mut r);
    assert_eq!(
        h.old_top - h.old_base,
        1000 * 4,
        "the dead list's words gone"
    );
    let mut v = r.0[0];
    for i in (0..1000).rev() {
        let a = ptr(v);
        assert_eq!((h.cc(a), h.payload(a, 0)), (7, Value::Int(i)));
        v = h.payload(a, 1);
    }
    assert_eq!(v, Value::Int(0));
    // Every pointer bit past the live words is clear, and each live
    // closure's are where its pointers are.
    assert!((h.old_top..h.old_base + h.old_size).all(|i| !h.heap_word_bit(i)));
    let mut closures = 0;
    h.walk(&mut |a, info, _| {
        closures += 1;
        assert_eq!(info.n, 2);
        assert!(!h.heap_word_bit(a as usize + 2));
        let tail = h.payload(a, 1);
        assert_eq!(
            h.heap_word_bit(a as usize + 3),
            matches!(tail, Value::Ptr(_))
        );
    });
    assert_eq!(closures, 1000);
    assert_eq!(
        h.stats.residency_samples, 2,
        "the census's collection's, then its"
    );
}

#[test]
fn a_compacting_major_collection_short_circuits_old_indirections() {
    let mut h = heap_with_room();
    let mut r = R(vec![]);
    let target = h.alloc(con(1), 3, &[Value::Int(5)]).unwrap();
    let thunk = h.alloc(con(1), 4, &[Value::Int(6)]).unwrap();
    r.0 = vec![Value::Ptr(target), Value::Ptr(thunk)];
    h.collect(0, &mut r).unwrap();
    let (target, thunk) = (ptr(r.0[0]), ptr(r.0[1]));
    h.update_with_ind(thunk, target);
    r.0 = vec![Value::Ptr(thunk)];
    compacting_major(&mut h, &mut r);
    let a = ptr(r.0[0]);
    assert_eq!(
        (h.info(a).unwrap().tag, h.payload(a, 0)),
        (Tag::Con, Value::Int(5))
    );
    assert_eq!(h.old_top - h.old_base, 3, "the indirection is not kept");
}

#[test]
fn a_compacting_major_collection_keeps_the_aged_closures_and_their_pointers() {
    let mut h = Heap::new(64 << 20);
    let mut r = R(vec![]);
    h.reserve(3, false, &mut r).unwrap();
    // Old: garbage, then `a` (its payload to be made to point at an aged
    // closure) and `c` (which an aged closure points to).
    let junk = h.alloc(con(1), 1, &[Value::Int(1)]).unwrap();
    let a = h.alloc(con(1), 2, &[Value::Int(2)]).unwrap();
    let c = h.alloc(con(1), 3, &[Value::Int(3)]).unwrap();
    r.0 = vec![Value::Ptr(junk), Value::Ptr(a), Value::Ptr(c)];
    h.collect(0, &mut r).unwrap();
    let (a, c) = (ptr(r.0[1]), ptr(r.0[2]));
    r.0 = vec![Value::Ptr(a)];
    fill_until_the_age_window(&mut h, &mut r);
    let b = h.alloc(con(1), 4, &[Value::Ptr(c)]).unwrap();
    h.set_payload(a, 0, Value::Ptr(b));
    compacting_major(&mut h, &mut r);
    let a = ptr(r.0[0]);
    let b = ptr(h.payload(a, 0));
    assert_eq!(space(&h, a), Space::Old);
    assert_eq!(space(&h, b), Space::Aged, "aged by the minor collection");
    assert_eq!(
        h.remembered_words,
        vec![a + 2],
        "the remembered word moved with `a`"
    );
    let c = ptr(h.payload(b, 0));
    assert_eq!(
        (space(&h, c), h.cc(c), h.payload(c, 0)),
        (Space::Old, 3, Value::Int(3))
    );
    assert_eq!(
        h.old_top - h.old_base,
        6,
        "`junk` gone, `a` and `c` slid down"
    );
    // The next minor collection promotes `b` and finds it through the
    // remembered word.
    churn(&mut h, &mut r);
    let b = ptr(h.payload(ptr(r.0[0]), 0));
    assert_eq!((space(&h, b), h.cc(b)), (Space::Old, 4));
}

#[test]
fn a_list_that_overflows_the_mark_stack_is_marked_in_more_passes() {
    // Each cell holds its tail first, so marking leaves each head's box
    // on the stack until the list's end: twice the stack's bound.
    let len = 2 * compact::mark_stack_bound(0) as i64;
    let mut h = Heap::new(64 << 20);
    let mut r = R(vec![]);
    build_list(&mut h, &mut r, len, true);
    build_list(&mut h, &mut r, 100, false);
    h.collect(0, &mut r).unwrap();
    // The short list dies: the long one's cells slide down over it.
    r.0.remove(0);
    let before = h.old_top - h.old_base;
    compacting_major(&mut h, &mut r);
    assert_eq!(before - (h.old_top - h.old_base), 100 * 7);
    check_list(&h, r.0[0], len, true);
}
