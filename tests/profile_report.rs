//! Golden tests of `dump` and `report` on a small hand-built profile.

mod profile_fixture;

use stg_run::internal::profile::format;
use stg_run::internal::profile::view::dump::dump;
use stg_run::internal::profile::view::report::{Options, SortBy, report, unknown_exclusions};

fn opts() -> Options {
    Options {
        program: "fib".into(),
        ..Options::default()
    }
}

#[test]
fn dump_fib() {
    insta::assert_snapshot!(dump(&profile_fixture::fib()));
}

#[test]
fn dump_is_the_same_after_a_round_trip() {
    let p = profile_fixture::fib();
    let q = format::read(&format::write(&p)).unwrap();
    assert_eq!(dump(&p), dump(&q));
}

#[test]
fn report_fib_default() {
    insta::assert_snapshot!(report(&profile_fixture::fib(), &opts()));
}

#[test]
fn report_fib_raw() {
    let o = Options {
        raw: true,
        ..opts()
    };
    insta::assert_snapshot!(report(&profile_fixture::fib(), &o));
}

#[test]
fn report_fib_min_ticks() {
    // main.g's subtree has 42 inherited ticks: hidden at 100, main.f's kept.
    let o = Options {
        min_ticks: 100,
        ..opts()
    };
    insta::assert_snapshot!(report(&profile_fixture::fib(), &o));
}

#[test]
fn report_fib_exclude() {
    let o = Options {
        exclude: vec!["main.f".into()],
        ..opts()
    };
    insta::assert_snapshot!(report(&profile_fixture::fib(), &o));
}

#[test]
fn report_fib_extra_columns_sorted_by_entries() {
    let o = Options {
        sort: SortBy::Entries,
        thunks: true,
        calls: true,
        paps: true,
        ..opts()
    };
    insta::assert_snapshot!(report(&profile_fixture::fib(), &o));
}

#[test]
fn report_without_frequency_and_with_overhead() {
    let mut p = profile_fixture::fib();
    p.frequency = 0;
    p.overhead = 17;
    let o = Options {
        sort: SortBy::Alloc,
        top: 2,
        ..opts()
    };
    insta::assert_snapshot!(report(&p, &o));
}

#[test]
fn report_of_a_deep_chain_caps_indentation() {
    let p = profile_fixture::chain(8);
    let o = Options {
        max_indent: 3,
        ..opts()
    };
    insta::assert_snapshot!(report(&p, &o));
}

#[test]
fn report_and_dump_of_a_million_deep_chain_do_not_overflow() {
    let p = profile_fixture::chain(1_000_000);
    let r = report(&p, &opts());
    assert_eq!(
        r.lines()
            .filter(|l| l.contains("loop") && l.contains("Main"))
            .count(),
        500_000 + 1
    );
    let d = dump(&p);
    assert!(d.contains("entry 999999 depth 999999 cc 2 \"loop\""));
}

#[test]
fn report_with_counters_at_u64_max_does_not_overflow() {
    let mut p = profile_fixture::fib();
    for e in &mut p.entries {
        e.counters =
            profile_fixture::counters(u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX);
    }
    let o = Options {
        raw: true,
        thunks: true,
        calls: true,
        paps: true,
        ..opts()
    };
    let r = report(&p, &o);
    assert!(r.contains("100.0"), "{r}");
}

#[test]
fn control_characters_in_names_do_not_break_the_table() {
    // Labels are any string literal: `scc "main\nf"` is a valid program.
    let mut p = profile_fixture::fib();
    p.cost_centres[4].name = "main\nf".into();
    p.cost_centres[5].name = "main\tg\r".into();
    p.modules[2] = "Ma\u{7}in".into();
    let o = Options {
        program: "f\nib".into(),
        ..opts()
    };
    let r = report(&p, &o);
    for line in r.lines() {
        // The header's lines start with a tab, as GHC's do.
        let body = line.strip_prefix('\t').unwrap_or(line);
        assert!(!body.chars().any(char::is_control), "{line:?} in\n{r}");
    }
    // One row per cost centre in the top table, one per entry in the tree.
    assert_eq!(r.lines().filter(|l| l.starts_with("main f ")).count(), 1);
    assert_eq!(r.lines().filter(|l| l.starts_with("   main f ")).count(), 1);
    assert_eq!(r.lines().filter(|l| l.starts_with("   main g ")).count(), 1);
    assert!(r.starts_with("\tf ib Time and Allocation Profiling Report\n"));
    // The columns stay aligned: every row of the tree is as long as its
    // header (no cell in the last column is wider than "%alloc").
    let tree: Vec<&str> = r.lines().skip_while(|l| !l.contains("no.")).collect();
    let width = tree[0].chars().count();
    assert!(tree.len() > 5);
    for row in &tree {
        assert_eq!(row.chars().count(), width, "{row:?} in\n{r}");
    }
}

#[test]
fn exclude_takes_a_name_alone_or_qualified_by_its_module() {
    let p = profile_fixture::fib();
    let with = |names: &[&str]| Options {
        exclude: names.iter().map(|n| n.to_string()).collect(),
        ..opts()
    };
    // `Main.main.f` (callgrind's name) hides what `main.f` hides; only the
    // header, which repeats the name, differs.
    let bare = report(&p, &with(&["main.f"]));
    let qualified = report(&p, &with(&["Main.main.f"]));
    let without_header = |r: &str| -> Vec<String> {
        r.lines()
            .filter(|l| !l.contains("hidden"))
            .map(String::from)
            .collect()
    };
    assert!(!qualified.contains(" main.f "), "{qualified}");
    assert!(qualified.contains(" main.g "), "{qualified}");
    assert_eq!(without_header(&bare), without_header(&qualified));
    // A qualified name hides that module's cost centre only: Main's CAF
    // holds the whole program, Prelude's holds nothing.
    let main_caf = report(&p, &with(&["Main.CAF"]));
    assert!(!main_caf.contains(" main "), "{main_caf}");
    let prelude_caf = report(&p, &with(&["Prelude.CAF"]));
    assert!(prelude_caf.contains(" main.f "), "{prelude_caf}");

    let o = with(&[
        "nothere",
        "main.f",
        "Main.main.f",
        "Prelude.CAF", // declared, though no entry uses it
        "Prelude.main",
        "Main.",
        "main.f.",
    ]);
    assert_eq!(
        unknown_exclusions(&p, &o),
        vec!["nothere", "Prelude.main", "Main.", "main.f."]
    );
    assert!(unknown_exclusions(&p, &opts()).is_empty());
}
