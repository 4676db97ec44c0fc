//! Heap profiles stay bounded however the run goes (issue 27): each is
//! written as its censuses are taken, its stacks-mode band names are cut
//! as GHC's `-L` cuts them (the whole stacks listed once, beside it), a
//! size budget stops the censuses with a warning, and `stg-prof heap`
//! reads a file of hundreds of thousands of bands in memory linear in its
//! size. Memory is the child's own peak resident set, from `wait4`.

mod cli_common;
mod generated_programs;

use std::process::Command;

use cli_common::{LIVE_SPIN, have, output_and_peak_rss, scratch, text};
use stg_run::internal::profile::view::heap_chart::read_hp;

/// Levels of the deep program: stacks 2,000 cost centres deep, each
/// level's list cell a band of its own in every census.
const DEPTH: usize = 2000;

/// Runs `stg-run deep.stg` (stacks mode, a band per level) in a fresh
/// directory with `args` added; returns the directory and the output with
/// the peak RSS in kilobytes.
fn deep_run(test: &str, args: &[&str]) -> (std::path::PathBuf, std::process::Output, u64) {
    let dir = scratch("robust_heap_profile", test);
    std::fs::write(
        dir.join("deep.stg"),
        generated_programs::deep_stacks(DEPTH, 60),
    )
    .unwrap();
    let (out, rss) = output_and_peak_rss(
        Command::new(env!("CARGO_BIN_EXE_stg-run"))
            .args([
                "deep.stg",
                "--cost-centres=stacks",
                "--auto-cc=top",
                "--heap-profile=cc",
                "--heap-interval=10000",
                "--reproducible",
            ])
            .args(args)
            .current_dir(&dir),
    );
    (dir, out, rss)
}

/// The acceptance case of issue 27: a 2,000-deep stacks-mode heap profile
/// wrote 1.75 GB (3.4 GB of memory) when band names were whole stacks
/// held in memory to the end. Now: under 50 MB and 200 MB.
#[test]
fn a_two_thousand_deep_stacks_profile_stays_small() {
    let (dir, out, rss) = deep_run("deep", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{DEPTH}\n"));
    let hp_text = std::fs::read_to_string(dir.join("deep.hp")).unwrap();
    let hp = read_hp(&hp_text).unwrap();
    assert!(hp.times.len() >= 50, "only {} censuses", hp.times.len());
    assert!(
        hp_text.len() < 50 << 20,
        "deep.hp is {} bytes",
        hp_text.len()
    );
    assert!(rss < 200 << 10, "peak RSS {rss} KB");
    // A band per level, each name `(n)` and at most 25 characters.
    assert!(hp.bands.len() >= DEPTH, "{} bands", hp.bands.len());
    for band in &hp.bands {
        let rest = &band[band.find(')').unwrap() + 1..];
        assert!(band.starts_with('(') && rest.len() <= 25, "{band}");
    }
    // Each band's whole stack listed once, beside the file: the deepest
    // has MAIN, CAF, main and every level (the last level's cell built in
    // f1999).
    let listing = std::fs::read_to_string(dir.join("deep.hp.stacks")).unwrap();
    let entries: Vec<(&str, &str)> = listing
        .lines()
        .skip(1)
        .map(|l| l.split_once('\t').unwrap())
        .collect();
    assert_eq!(entries.len(), hp.bands.len());
    let listed: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.0).collect();
    assert!(hp.bands.iter().all(|b| listed.contains(b.as_str())));
    let deepest = entries
        .iter()
        .map(|e| e.1.split('/').count())
        .max()
        .unwrap();
    assert_eq!(deepest, DEPTH + 2, "(n)f1999/…/f0/main/deep.CAF");
    for (band, stack) in &entries {
        let cut = band.trim_end_matches("...");
        assert!(stack.starts_with(cut), "{band} is not the start of {stack}");
    }
    eprintln!(
        "deep.hp: {} bytes, {} censuses, {} bands; deep.hp.stacks: {} bytes; peak RSS {rss} KB",
        hp_text.len(),
        hp.times.len(),
        hp.bands.len(),
        listing.len()
    );
    if have("hp2ps", "-?", "hp2ps", "ghc") {
        let ps = Command::new("hp2ps")
            .args(["-c", "deep.hp"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            ps.status.success() && ps.stderr.is_empty(),
            "hp2ps: {}",
            text(&ps.stderr)
        );
    }
}

/// A budget too small for the whole profile: the censuses stop before it
/// is passed, with a warning that says what to do; the file holds the
/// samples written before, complete, and the run ends as usual.
#[test]
fn the_size_budget_stops_the_censuses_with_a_warning() {
    let (dir, out, _) = deep_run("budget", &["--max-heap-profile=300K"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("stg-run: warning: the heap profile reached its size limit (307200 bytes, --max-heap-profile) at step")
            && err.contains("raise --heap-interval"),
        "{err}"
    );
    let hp_text = std::fs::read_to_string(dir.join("deep.hp")).unwrap();
    let listing = std::fs::read_to_string(dir.join("deep.hp.stacks")).unwrap();
    assert!(hp_text.len() + listing.len() <= 300 << 10);
    let hp = read_hp(&hp_text).unwrap();
    assert!(!hp.times.is_empty() && hp.cut_short.is_none());
    assert!(hp_text.ends_with(".0\n") && hp_text.lines().last().unwrap().starts_with("END_SAMPLE"));
}

/// A `.hp` of 600,000 bands (20,000 samples of 30 new bands each, 7.8
/// MB): a dense bands × samples table took more than 24 GB; the sparse
/// reading stays under 500 MB, and the chart merges all but 19 into OTHER.
#[test]
fn stg_prof_heap_reads_six_hundred_thousand_bands_in_little_memory() {
    let dir = scratch("robust_heap_profile", "many_bands");
    let mut hp =
        String::from("JOB \"many\"\nDATE \"d\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\n");
    let mut band = 0;
    for sample in 0..20_000 {
        hp.push_str(&format!("BEGIN_SAMPLE {sample}.0\n"));
        for j in 0..30 {
            band += 1;
            hp.push_str(&format!("({band})f{}\t{}\n", j % 10, 8 * (j % 9 + 1)));
        }
        hp.push_str(&format!("END_SAMPLE {sample}.0\n"));
    }
    assert!(hp.len() > 7_500_000, "{} bytes", hp.len());
    let file = dir.join("many.hp");
    std::fs::write(&file, &hp).unwrap();
    let (out, rss) = output_and_peak_rss(
        Command::new(env!("CARGO_BIN_EXE_stg-prof"))
            .arg("heap")
            .arg(&file),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.contains("OTHER (599981 groups)"), "no OTHER band");
    assert_eq!(svg.matches("<polygon ").count(), 20);
    assert!(rss < 500 << 10, "peak RSS {rss} KB");
    eprintln!("stg-prof heap on {} bytes: peak RSS {rss} KB", hp.len());
}

/// The names in `dir` of the temporaries of `spin.hp` (`.spin.hp.<pid>.<n>.tmp`)
/// and their sizes.
fn spin_temporaries(dir: &std::path::Path) -> Vec<(String, u64)> {
    let mut found: Vec<(String, u64)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name.starts_with(".spin.hp.") && name.ends_with(".tmp"))
                .then(|| (name, e.metadata().map(|m| m.len()).unwrap_or(0)))
        })
        .collect();
    found.sort();
    found
}

/// While the run goes, its censuses are written to a temporary that grows
/// (not held in memory), and nothing is under the final name; when the
/// run is stopped (Ctrl-C), the temporary becomes `spin.hp`, whole, and
/// no temporary is left.
#[cfg(unix)]
#[test]
fn the_heap_profile_grows_in_a_temporary_and_is_whole_under_its_name() {
    let dir = scratch("robust_heap_profile", "streaming");
    std::fs::write(dir.join("spin.stg"), LIVE_SPIN).unwrap();
    for engine in ["fast", "reference"] {
        let child = Command::new(env!("CARGO_BIN_EXE_stg-run"))
            .args(["spin.stg", "--heap-profile=descr", "--heap-interval=1"])
            .args(["--engine", engine])
            .current_dir(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let mut sizes = Vec::new();
        while sizes.len() < 2 && started.elapsed() < std::time::Duration::from_secs(60) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            if let [(_, size)] = spin_temporaries(&dir)[..]
                && size > 200
                && sizes.last() != Some(&size)
            {
                assert!(
                    !dir.join("spin.hp").exists(),
                    "{engine}: spin.hp before the end"
                );
                sizes.push(size);
            }
        }
        assert!(
            sizes.len() == 2 && sizes[1] > sizes[0],
            "{engine}: {sizes:?}"
        );
        // SAFETY: kill(2) with the child's own id.
        assert_eq!(
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
            0
        );
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
        let hp_text = std::fs::read_to_string(dir.join("spin.hp")).unwrap();
        let hp = read_hp(&hp_text).unwrap();
        assert!(hp.cut_short.is_none() && hp.times.len() > 2, "{engine}");
        assert!(hp_text.len() as u64 >= sizes[1]);
        assert_eq!(spin_temporaries(&dir), Vec::new(), "{engine}");
        std::fs::remove_file(dir.join("spin.hp")).unwrap();
    }
}

/// The stacks listing is one of the run's outputs, checked before the run
/// with the others: where it cannot be written, the program is not run
/// and no heap profile is left.
#[test]
fn the_stacks_listing_is_checked_before_the_run() {
    let dir = scratch("robust_heap_profile", "stacks_planned");
    std::fs::write(dir.join("spin.stg"), LIVE_SPIN).unwrap();
    std::fs::create_dir_all(dir.join("spin.hp.stacks")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args(["spin.stg", "--heap-profile=cc", "--cost-centres=stacks"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "stg-run: cannot write the heap profile's stacks listing to spin.hp.stacks: \
         it is a directory; give a file name\n"
    );
    assert!(out.stdout.is_empty());
    assert!(!dir.join("spin.hp").exists());
    assert_eq!(spin_temporaries(&dir), Vec::new());
    // Without stacks mode there is no listing, and the run goes.
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args(["spin.stg", "--heap-profile=cc", "--max-steps=1000"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(dir.join("spin.hp").exists());
}

/// A biographical profile under an address-space limit (`ulimit -v`):
/// its table beside the heap is sized to the heap in use, not to the
/// whole `--max-heap` (one entry a word, which did not fit beside a 2 GiB
/// heap and aborted the run with neither profile written), and
/// allocated so that a refusal is an error, not an abort.
#[test]
fn a_biographical_profile_fits_under_an_address_space_limit() {
    const ADDRESS_SPACE: u64 = 4_000_000 * 1024;
    let dir = scratch("robust_heap_profile", "biography_address_space");
    let nfib = cli_common::program("nfib.stg");
    let queens = cli_common::program("queens.stg");
    let runs: [&[&str]; 2] = [
        &[
            nfib.to_str().unwrap(),
            "--max-heap",
            "2G",
            "--heap-profile",
            "biography",
            "--profile-file",
            "nfib.pgcl",
        ],
        // The default heap: the most address space the system reserves.
        &[
            queens.to_str().unwrap(),
            "--heap-profile",
            "biography",
            "--profile",
        ],
    ];
    for (args, stem) in runs.into_iter().zip(["nfib", "queens"]) {
        let out = match cli_common::stg_run_address_limited(&dir, ADDRESS_SPACE, args) {
            Ok(out) => out,
            Err(why) => {
                eprintln!("skipped: {why}");
                return;
            }
        };
        assert_eq!(out.status.code(), Some(0), "{stem}: {}", text(&out.stderr));
        let hp = std::fs::read_to_string(dir.join(format!("{stem}.hp"))).unwrap();
        assert!(
            hp.contains("BEGIN_SAMPLE") && hp.contains("VOID"),
            "{stem}: {hp}"
        );
        assert!(
            dir.join(format!("{stem}.pgcl")).exists(),
            "{stem}: the profile"
        );
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "no temporary left: {left:?}");
}

/// A biographical census every step of nfib (108,486 censuses of a heap
/// of a few closures) runs to the end. Each census's major collection
/// made the biographies' table anew, the young generation's 6 MiB of heap
/// words included (3 MiB zeroed and faulted in): over 300 s in a release
/// build, against about a second now, as by kind (docs/PERFORMANCE.md,
/// "Traces, censuses and suggestions at scale"; speed is measured there,
/// not asserted here).
#[test]
fn a_biographical_census_every_step_of_nfib() {
    let dir = scratch("robust_heap_profile", "biography_every_step");
    let nfib = cli_common::program("nfib.stg");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(&nfib)
        .args([
            "--heap-profile=biography",
            "--heap-interval=1",
            "--reproducible",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "1973\n");
    let hp = read_hp(&std::fs::read_to_string(dir.join("nfib.hp")).unwrap()).unwrap();
    assert!(hp.times.len() > 100_000, "{} censuses", hp.times.len());
}
