//! `stg-prof heap`: `.hp` files read (ours and GHC's style) and drawn as a
//! stacked-area SVG chart.
//!
//! - Bad files: each error names the line and what was expected.
//! - Geometry, read back from the SVG: the bands stack (each band's bottom
//!   edge is the top edge of the one below, the lowest sits on the axis),
//!   the stack's height at each sample is proportional to that sample's
//!   total, the largest band is at the bottom, and more than 20 groups
//!   are merged into OTHER.
//! - A real run's heap profile (`stg-run --heap-profile`) and a GHC-style
//!   file (fractional seconds, `MARK` lines, cost-centre stacks with
//!   spaces) draw without error; headless Chromium parses the SVG (no
//!   `parsererror`). Without `chromium` that part is skipped with a message,
//!   unless `STG_RUN_REQUIRE_CLIENTS` is set.
//! - GHC's `hp2ps` reads every heap profile `stg-run --heap-profile` writes
//!   (by cost centre, flat and stacks, by kind, by description); skipped
//!   without `hp2ps` in the same way (`.ci/run` installs Debian's `ghc`,
//!   which has it).

mod cli_common;

use std::path::Path;
use std::process::Command;

use cli_common::{chromium, dump_dom, have, scratch, stg_prof, stg_prof_run, stg_run_in};
use stg_run::internal::profile::view::heap_chart::{read_hp, svg};

#[test]
fn bad_files_say_which_line_and_what_is_wrong() {
    let cases = [
        ("", "no heap-profile lines"),
        ("\n\n", "no heap-profile lines"),
        ("JOB foo\n", "line 1: JOB wants a string in double quotes"),
        (
            "BEGIN_SAMPLE x\n",
            "line 1: BEGIN_SAMPLE's time `x` is not a number",
        ),
        (
            "BEGIN_SAMPLE 1\nf\t2\n",
            "the sample begun on line 1 has no END_SAMPLE",
        ),
        (
            "END_SAMPLE 1\n",
            "line 1: END_SAMPLE without a BEGIN_SAMPLE",
        ),
        (
            "BEGIN_SAMPLE 1\nEND_SAMPLE 2\n",
            "line 2: END_SAMPLE 2 ends the sample begun at time 1",
        ),
        (
            "BEGIN_SAMPLE 1\nBEGIN_SAMPLE 2\n",
            "line 2: BEGIN_SAMPLE inside the sample begun on line 1",
        ),
        ("main\t12\n", "line 1: `main\t12` is outside a sample"),
        (
            "BEGIN_SAMPLE 1\nmain\n",
            "line 2: `main` wants a band name and a value",
        ),
        (
            "BEGIN_SAMPLE 1\nmain\tlots\n",
            "line 2: the value `lots` is not a number",
        ),
        (
            "BEGIN_SAMPLE 1\nmain\t-3\n",
            "line 2: the value -3 is negative",
        ),
        (
            "BEGIN_SAMPLE 5\nEND_SAMPLE 5\nBEGIN_SAMPLE 4\nEND_SAMPLE 4\n",
            "line 4: sample time 4 is before the previous sample's 5",
        ),
    ];
    for (text, want) in cases {
        let err = read_hp(text).expect_err(text);
        assert!(err.starts_with(want), "{text:?}: {err}");
    }
}

/// A file cut short in its last sample (as GHC leaves one when the run is
/// killed) draws the complete samples before it.
#[test]
fn a_file_cut_short_draws_its_complete_samples() {
    let text = "BEGIN_SAMPLE 1\nf\t2\nEND_SAMPLE 1\nBEGIN_SAMPLE 2\nf\t";
    let hp = read_hp(text).unwrap();
    assert_eq!(hp.cut_short, Some(4));
    assert_eq!(hp.times, [1.0]);
    assert_eq!(hp.sample(0), [("f", 2.0)]);
    assert_eq!(polygons(&svg(&hp)).len(), 1);
}

/// A file cut anywhere in its last line (a run killed while writing it)
/// draws the complete samples before it, whatever the line: a band's, a
/// keyword's (`BEGIN_SAM`, `MA`), or `END_SAMPLE` with its time cut off
/// (`END_SAMPLE 1.` of 1.25). Every cut of a three-sample file reads.
#[test]
fn a_file_cut_in_any_line_draws_its_complete_samples() {
    let full = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
                BEGIN_SAMPLE 0.50\nMAIN\t100\nEND_SAMPLE 0.50\n\
                BEGIN_SAMPLE 1.25\nMAIN\t200\nEND_SAMPLE 1.25\nMARK 1.30\n\
                BEGIN_SAMPLE 2.50\nMAIN\t300\nEND_SAMPLE 2.50\n";
    let first_end = full.find("END_SAMPLE 0.50\n").unwrap() + "END_SAMPLE 0.50\n".len();
    for cut in first_end..full.len() {
        let text = &full[..cut];
        let hp = read_hp(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(!hp.times.is_empty(), "{text:?}");
        assert_eq!(hp.times, [0.5, 1.25, 2.5][..hp.times.len()], "{text:?}");
        // Drawn without a panic, the values of the complete samples only.
        let _ = svg(&hp);
        assert_eq!(hp.values.len(), hp.times.len(), "{text:?}");
    }
    let cases = [
        ("BEGIN_SAM", 8),
        ("BEGIN_SAMPLE 1.25\nMAIN\t200\nEND_SAMPLE 1.", 8),
        ("BEGIN_SAMPLE 1.25\nMAIN\t200\nEND_SAMPLE 1.25\nMA", 11),
    ];
    let head = &full[..first_end];
    for (tail, line) in cases {
        let text = format!("{head}{tail}");
        let hp = read_hp(&text).unwrap();
        assert_eq!(hp.cut_short, Some(line), "{text:?}");
    }
    // Cut before any sample is complete: nothing to draw, an error.
    let err = read_hp("JOB \"j\"\nBEGIN_SAM").unwrap_err();
    assert!(
        err.starts_with("line 2, the last, ends in the middle"),
        "{err}"
    );
    // A complete last line without its newline is read.
    assert_eq!(read_hp(full.trim_end()).unwrap().cut_short, None);
}

/// The polygons of the chart: (band name, points).
fn polygons(svg: &str) -> Vec<(String, Vec<(f64, f64)>)> {
    svg.split("<polygon ")
        .skip(1)
        .map(|p| {
            let attr = |name: &str| -> &str {
                let start = p.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                &p[start..start + p[start..].find('"').unwrap()]
            };
            let points = attr("points")
                .split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (attr("data-band").to_string(), points)
        })
        .collect()
}

#[test]
fn bands_stack_and_heights_follow_the_totals() {
    // Totals 0, 100, 400, 200; b is the larger band overall.
    let hp = read_hp(
        "JOB \"t\"\nDATE \"d\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\n\
         BEGIN_SAMPLE 0\nEND_SAMPLE 0\n\
         BEGIN_SAMPLE 10\na\t40\nb\t60\nEND_SAMPLE 10\n\
         BEGIN_SAMPLE 20\na\t100\nb\t300\nEND_SAMPLE 20\n\
         BEGIN_SAMPLE 30\nb\t200\nEND_SAMPLE 30\n",
    )
    .unwrap();
    let chart = svg(&hp);
    let bands = polygons(&chart);
    assert_eq!(
        bands.iter().map(|b| b.0.as_str()).collect::<Vec<_>>(),
        ["b", "a"],
        "largest band first (at the bottom)"
    );
    let n = 4;
    let top = |b: &[(f64, f64)]| b[..n].to_vec();
    let bottom = |b: &[(f64, f64)]| b[n..].iter().rev().copied().collect::<Vec<_>>();
    // The lowest band sits on the axis; each band's bottom is the top of the
    // one below.
    let axis = bottom(&bands[0].1);
    assert!(axis.windows(2).all(|w| w[0].1 == w[1].1), "{axis:?}");
    assert_eq!(bottom(&bands[1].1), top(&bands[0].1));
    // Times go left to right at equal spacing.
    let xs: Vec<f64> = axis.iter().map(|p| p.0).collect();
    assert!((xs[1] - xs[0] - (xs[2] - xs[1])).abs() < 0.02, "{xs:?}");
    // Heights above the axis are proportional to 0, 100, 400, 200.
    let heights: Vec<f64> = top(&bands[1].1).iter().map(|p| axis[0].1 - p.1).collect();
    let unit = heights[1] / 100.0;
    for (h, total) in heights.iter().zip([0.0, 100.0, 400.0, 200.0]) {
        assert!((h - total * unit).abs() < 0.05, "{heights:?}");
    }
    // a is absent from the last sample: zero thickness there.
    let a = &bands[1].1;
    assert_eq!(a[n - 1].1, a[n].1);
    assert!(chart.contains("peak 400 bytes"));
    assert!(chart.contains("<title>b: peak 300 bytes at 20 steps</title>"));
}

#[test]
fn more_than_twenty_groups_merge_into_other() {
    let mut text = String::from("BEGIN_SAMPLE 1\n");
    for i in 0..25 {
        text.push_str(&format!("g{i:02}\t{}\n", 100 + i));
    }
    text.push_str("END_SAMPLE 1\n");
    let bands = polygons(&svg(&read_hp(&text).unwrap()));
    assert_eq!(bands.len(), 20);
    // The 19 largest are g24 … g06; the other 6 (g00 … g05) are merged.
    assert_eq!(bands[0].0, "g24");
    assert_eq!(bands[18].0, "g06");
    assert_eq!(bands[19].0, "OTHER (6 groups)");
    // Every band has a colour of its own.
    let chart = svg(&read_hp(&text).unwrap());
    let fills: std::collections::BTreeSet<&str> = chart
        .split("<polygon ")
        .skip(1)
        .map(|p| {
            let start = p.find("fill=\"").expect("a fill") + 6;
            &p[start..start + p[start..].find('"').unwrap()]
        })
        .collect();
    assert_eq!(fills.len(), 20, "{fills:?}");
}

const GHC_STYLE: &str = "JOB \"queens +RTS -hc -i0.01\"
DATE \"Mon Nov 23 12:00 2026\"
SAMPLE_UNIT \"seconds\"
VALUE_UNIT \"bytes\"
BEGIN_SAMPLE 0.000000
END_SAMPLE 0.000000
BEGIN_SAMPLE 0.012000
(183)safe/extend.ok/extend	4832
MAIN\t160
END_SAMPLE 0.012000
MARK 0.015
BEGIN_SAMPLE 0.024000
(183)safe/extend.ok/extend	9664
(200)<a & b>	80
END_SAMPLE 0.024000
";

/// Headless Chromium parses `svg_text` as an SVG document (no
/// `parsererror`) with bands in it.
fn chromium_parses(dir: &Path, name: &str, svg_text: &str) {
    if !chromium() {
        return;
    }
    let file = dir.join(format!("{name}.svg"));
    std::fs::write(&file, svg_text).unwrap();
    let dom = dump_dom(dir, &format!("file://{}", file.display()));
    assert!(!dom.contains("parsererror"), "{name}: {dom}");
    assert!(dom.contains("<polygon"), "{name}: {dom}");
}

/// A heap profile written by GHC itself (`+RTS -hc`, tests/fixtures/
/// ghc_leak.hs): fractional seconds, band names with the cost-centre
/// stack's id, library CAFs; 15 samples, peak 23,886,448 bytes at 0.0078 s.
#[test]
fn a_file_written_by_ghc_reads_and_draws() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ghc_leak.hp"),
    )
    .unwrap();
    let hp = read_hp(&text).unwrap();
    assert_eq!(hp.job, "leak +RTS -hc -i0.002");
    assert_eq!(hp.sample_unit, "seconds");
    assert_eq!(hp.times.len(), 15);
    let totals: Vec<f64> = (0..hp.times.len())
        .map(|i| hp.sample(i).iter().map(|b| b.1).sum())
        .collect();
    assert_eq!(totals.iter().copied().fold(0.0, f64::max), 23_886_448.0);
    let chart = svg(&hp);
    assert!(chart.contains("peak 23,886,448 bytes"));
    let bands = polygons(&chart);
    // The two leaking groups are the largest, at the bottom.
    assert_eq!(bands[0].0, "(256)main/Main.CAF");
    assert_eq!(bands[1].0, "(259)mean.s/mean/main/Main.CAF");
    assert_eq!(bands.len(), 10);
}

#[test]
fn real_and_ghc_style_files_draw() {
    let dir = scratch("profile_heap_chart", "draw");

    let hp = read_hp(GHC_STYLE).unwrap();
    assert_eq!(hp.times.len(), 3);
    assert_eq!(hp.sample(2)[1], ("(200)<a & b>", 80.0));
    let chart = svg(&hp);
    assert!(chart.contains("data-band=\"(200)&lt;a &amp; b&gt;\""));
    chromium_parses(&dir, "ghc_style", &chart);

    // A real heap profile, through both binaries.
    let src = cli_common::program("foldl_leak.stg");
    stg_run_in(
        &dir,
        &[
            src.to_str().unwrap(),
            "--heap-profile=cc",
            "--heap-interval=2000",
        ],
    );
    let chart = stg_prof(&["heap"], &dir.join("foldl_leak.hp"));
    assert!(!polygons(&chart).is_empty());
    chromium_parses(&dir, "foldl_leak", &chart);

    // Bad files: exit 1, the file named and what is wrong: a bad line, and
    // a binary file (a .pgcl given by mistake) told what goes where.
    for (name, bytes, want) in [
        ("bad.hp", &b"BEGIN_SAMPLE 1\nx\n"[..], "bad.hp: line 2"),
        (
            "run.pgcl",
            &b"prof\x02\xff\xfe"[..],
            "run.pgcl: not a heap profile",
        ),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let out = stg_prof_run(&["heap"], &file);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
    }
}

mod no_panics {
    use super::*;
    use proptest::prelude::*;

    /// Lines that look like a heap profile, and some that do not.
    fn line() -> impl Strategy<Value = String> {
        let number = prop_oneof![
            (0u64..1000).prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|f| f.to_string()),
            Just("1e18".to_string()),
            Just("-0".to_string()),
            Just("NaN".to_string()),
        ];
        prop_oneof![
            number.clone().prop_map(|n| format!("BEGIN_SAMPLE {n}")),
            number.clone().prop_map(|n| format!("END_SAMPLE {n}")),
            number.clone().prop_map(|n| format!("MARK {n}")),
            ("[a-z(>< ]{0,6}", number).prop_map(|(b, n)| format!("{b}\t{n}")),
            "[A-Z_]{0,12} \"?[a-z]{0,4}\"?",
            ".{0,12}",
        ]
    }

    proptest! {
        /// read_hp never panics; whatever it accepts draws, in bounded time.
        #[test]
        fn read_and_draw_never_panic(lines in proptest::collection::vec(line(), 0..40)) {
            let text = lines.join("\n");
            if let Ok(hp) = read_hp(&text) {
                let chart = svg(&hp);
                prop_assert!(chart.ends_with("</svg>\n"));
                for (_, points) in polygons(&chart) {
                    prop_assert!(points.iter().all(|(x, y)| x.is_finite() && y.is_finite()));
                }
            }
        }

        /// Well-formed files with random times and values always read.
        #[test]
        fn well_formed_files_read(samples in proptest::collection::vec(
            proptest::collection::vec(("[a-z]{1,3}", 0u64..1_000_000), 0..5), 0..8)) {
            let mut text = String::from("JOB \"j\"\n");
            for (i, bands) in samples.iter().enumerate() {
                text.push_str(&format!("BEGIN_SAMPLE {i}\n"));
                for (b, v) in bands {
                    text.push_str(&format!("{b}\t{v}\n"));
                }
                text.push_str(&format!("END_SAMPLE {i}\n"));
            }
            let hp = read_hp(&text).unwrap();
            prop_assert_eq!(hp.times.len(), samples.len());
            let chart = svg(&hp);
            let peak = samples.iter().map(|b| b.iter().map(|x| x.1).sum::<u64>()).max().unwrap_or(0);
            let label = stg_run_thousands(peak);
            let want = format!("peak {label} bytes");
            prop_assert!(chart.contains(&want), "{}", want);
        }
    }

    fn stg_run_thousands(n: u64) -> String {
        let d = n.to_string();
        let mut out = String::new();
        for (i, c) in d.chars().enumerate() {
            if i > 0 && (d.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    }
}

/// hp2ps (GHC's) turns each of stg-run's heap profiles into PostScript
/// without complaint. (It refused `BEGIN_SAMPLE 0`: the time must be a
/// floating-point number.)
#[test]
fn hp2ps_reads_what_stg_run_writes() {
    if !have("hp2ps", "-?", "hp2ps", "ghc") {
        return;
    }
    let dir = scratch("profile_heap_chart", "hp2ps");
    let src = cli_common::program("foldl_leak.stg");
    for (name, args) in [
        ("cc", &["--heap-profile=cc"][..]),
        (
            "stacks",
            &[
                "--heap-profile=cc",
                "--cost-centres=stacks",
                "--auto-cc=all",
            ][..],
        ),
        ("kind", &["--heap-profile=kind"][..]),
        ("descr", &["--heap-profile=descr"][..]),
        (
            "retainer",
            &["--heap-profile=retainer", "--auto-cc=all"][..],
        ),
        (
            "retainer-stacks",
            &[
                "--heap-profile=retainer",
                "--cost-centres=stacks",
                "--auto-cc=all",
            ][..],
        ),
        ("biography", &["--heap-profile=biography"][..]),
    ] {
        let run_dir = dir.join(name);
        std::fs::create_dir_all(&run_dir).unwrap();
        let mut run_args = vec![src.to_str().unwrap(), "--heap-interval=2000"];
        run_args.extend_from_slice(args);
        stg_run_in(&run_dir, &run_args);
        let hp = std::fs::read_to_string(run_dir.join("foldl_leak.hp")).unwrap();
        let out = Command::new("hp2ps")
            .args(["-c", "foldl_leak.hp"])
            .current_dir(&run_dir)
            .output()
            .unwrap();
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{name}: hp2ps: {}\n{hp}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ps = std::fs::read(run_dir.join("foldl_leak.ps")).unwrap();
        assert!(ps.starts_with(b"%!PS"), "{name}: not PostScript");
        // The band of the largest sample appears in the chart's key (hp2ps
        // gathers small bands into one, and shortens long names, so look
        // for a prefix; a stack's `(n)` is escaped in PostScript, so look
        // after it).
        let band = hp
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .max_by_key(|(_, v)| v.parse::<u64>().unwrap_or(0))
            .map(|(b, _)| b)
            .unwrap();
        let band = band.rsplit(')').next().unwrap();
        let prefix = &band[..band.len().min(12)];
        assert!(
            String::from_utf8_lossy(&ps).contains(prefix),
            "{name}: {prefix} not in the chart"
        );
    }
}

/// `stg-prof heap` draws a retainer profile, its sets' names in the key
/// as the file writes them.
#[test]
fn stg_prof_heap_draws_a_retainer_profile() {
    let dir = scratch("profile_heap_chart", "retainer");
    let src = cli_common::program("foldl_leak.stg");
    stg_run_in(
        &dir,
        &[
            src.to_str().unwrap(),
            "--heap-interval=2000",
            "--heap-profile=retainer",
            "--cost-centres=stacks",
            "--auto-cc=all",
        ],
    );
    let svg = stg_prof(&["heap"], &dir.join("foldl_leak.hp"));
    assert!(svg.contains("<svg"), "not an SVG: {svg}");
    for band in ["(1)main", "(2)SYSTEM"] {
        assert!(svg.contains(band), "{band} not in the chart's key");
    }
}

/// A band is named by an `scc` label (any string: spaces, newlines) and
/// the job by the program's file name: neither may split a line of the
/// file, and the band's name has no white space (hp2ps ends a name there).
#[test]
fn names_with_spaces_and_newlines_stay_one_name_in_the_hp_file() {
    use stg_run::internal::machine::heap_profile::{HeapProfileBy, HeapProfileOptions};
    use stg_run::internal::machine::{self, RunOptions};
    use stg_run::internal::stg::{load, source::SourceMap};
    let text =
        "main = {} \\u {} -> scc \"a b\\nc\" (let x = {} \\u {} -> I# {1#} in Cons {x, x})\n";
    let mut sources = SourceMap::new();
    let program = load::load(&mut sources, &[("m.stg".into(), text.into())], true)
        .unwrap()
        .program;
    let options = RunOptions {
        heap_profile: Some(HeapProfileBy::CostCentre),
        heap_interval: 1,
        heap_profile_options: HeapProfileOptions {
            job: "my\nprog".into(),
            date: "to\rday".into(),
            ..HeapProfileOptions::default()
        },
        ..RunOptions::default()
    };
    let r = machine::run(
        &program,
        &sources,
        &options,
        &mut Vec::new(),
        &mut Vec::new(),
    );
    assert!(r.error.is_none(), "{:?}", r.error.map(|e| e.to_string()));
    let hp_text = r.heap_profile.unwrap().hp_text.unwrap();
    let read = read_hp(&hp_text).unwrap();
    assert_eq!(read.job, "my prog");
    assert_eq!(read.date, "to day");
    assert!(read.bands.contains(&"m.a_b_c".to_string()), "{hp_text}");
    let band_lines = hp_text.lines().skip(4).filter(|l| !l.contains("_SAMPLE "));
    assert!(
        band_lines.clone().count() > 0
            && band_lines
                .clone()
                .all(|l| l.split_whitespace().count() == 2),
        "{hp_text}"
    );
}

/// The labels under the time axis (the SVG sets them at y = 488), left to
/// right.
fn time_labels(chart: &str) -> Vec<String> {
    chart
        .lines()
        .filter(|l| l.contains("y=\"488\" text-anchor=\"middle\">"))
        .map(|l| l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()].to_string())
        .collect()
}

#[test]
fn negative_sample_times_keep_their_sign() {
    // GHC's files start at 0, but nothing forbids an earlier sample.
    let chart = svg(&read_hp(
        "JOB \"x\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
         BEGIN_SAMPLE -5.0\nA\t9\nEND_SAMPLE -5.0\n\
         BEGIN_SAMPLE 3.0\nA\t5\nEND_SAMPLE 3.0\n",
    )
    .unwrap());
    assert!(
        chart.contains("<title>A: peak 9 b at -5 s</title>"),
        "{chart}"
    );
    assert_eq!(time_labels(&chart), ["-4", "-2", "0", "2"]);

    let chart = svg(&read_hp(
        "BEGIN_SAMPLE -1500.5\nA\t9\nEND_SAMPLE -1500.5\n\
         BEGIN_SAMPLE -0.0001\nB\t9\nEND_SAMPLE -0.0001\n\
         BEGIN_SAMPLE 500\nEND_SAMPLE 500\n",
    )
    .unwrap());
    assert!(
        chart.contains("A: peak 9 bytes at -1500.5 seconds"),
        "{chart}"
    );
    // Rounded to three decimals, -0.0001 is 0, not "-0".
    assert!(chart.contains("B: peak 9 bytes at 0 seconds"), "{chart}");
    assert_eq!(
        time_labels(&chart),
        ["-1,500", "-1,000", "-500", "0", "500"]
    );
}

#[test]
fn messages_quote_numbers_as_written() {
    // As f64s these would print as 18446744073709552000, 1e23, 1.5, 10, 5
    // and -3: not what the file says.
    let cases = [
        (
            "BEGIN_SAMPLE 0\nX\t18446744073709551615\nEND_SAMPLE 0\n",
            "line 2: the value 18446744073709551615 is out of range (at most 1e18)",
        ),
        (
            "BEGIN_SAMPLE 0\nX\t99999999999999999999999\n",
            "line 2: the value 99999999999999999999999 is out of range (at most 1e18)",
        ),
        (
            "BEGIN_SAMPLE 1e300\n",
            "line 1: BEGIN_SAMPLE's time 1e300 is out of range (at most 1e18)",
        ),
        (
            "BEGIN_SAMPLE 1.50\nEND_SAMPLE 1.5000001\n",
            "line 2: END_SAMPLE 1.5000001 ends the sample begun at time 1.50",
        ),
        (
            "BEGIN_SAMPLE 10.0\nEND_SAMPLE 10.0\nBEGIN_SAMPLE 5.00\nEND_SAMPLE 5.00\n",
            "line 4: sample time 5.00 is before the previous sample's 10.0; \
             samples must come in time order",
        ),
        (
            "BEGIN_SAMPLE 1\nmain\t-3.0\n",
            "line 2: the value -3.0 is negative",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(read_hp(text).expect_err(text), want, "{text:?}");
    }
    // A number of 300 digits is quoted, cut short.
    let long = format!("BEGIN_SAMPLE 1{}\n", "0".repeat(300));
    let err = read_hp(&long).unwrap_err();
    assert_eq!(
        err,
        format!(
            "line 1: BEGIN_SAMPLE's time 1{}… is out of range (at most 1e18)",
            "0".repeat(38)
        )
    );
}

/// A file of more samples than the plot has pixel columns is drawn at one
/// sample a column (the one of largest total), with its first and last:
/// the picture's size follows its width, not the file's length; the
/// highest sample and the tooltips' peaks are still exact.
#[test]
fn many_samples_are_drawn_one_a_column() {
    // 100,000 samples of two bands; one spike, in the middle, of total 9,000.
    let n = 100_000;
    let mut text = String::from("JOB \"many\"\n");
    for i in 0..n {
        let (a, b) = if i == n / 2 + 7 {
            (5000, 4000)
        } else {
            (i % 97, 100)
        };
        text.push_str(&format!(
            "BEGIN_SAMPLE {i}\na\t{a}\nb\t{b}\nEND_SAMPLE {i}\n"
        ));
    }
    let chart = svg(&read_hp(&text).unwrap());
    let bands = polygons(&chart);
    assert_eq!(bands.len(), 2);
    // The default plot is 600 pixels wide: at most 600 columns and the
    // first and last samples, each point twice (top and bottom edge).
    for (name, points) in &bands {
        assert!(points.len() <= 2 * 602, "{name}: {} points", points.len());
        assert!(points.len() >= 2 * 500, "{name}: {} points", points.len());
        let xs: Vec<f64> = points[..points.len() / 2].iter().map(|p| p.0).collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{name}: times in order");
        assert_eq!(
            (xs[0], *xs.last().unwrap()),
            (90.0, 690.0),
            "{name}: whole span"
        );
    }
    assert!(chart.len() < 100_000, "{} bytes", chart.len());
    // The spike is drawn: the top band reaches the plot's highest point at
    // its time, and the peaks say its values.
    let top_band = &bands[1].1;
    let highest = top_band[..top_band.len() / 2]
        .iter()
        .min_by(|p, q| p.1.total_cmp(&q.1))
        .unwrap();
    let spike_x = 90.0 + (n / 2 + 7) as f64 / (n - 1) as f64 * 600.0;
    assert!(
        (highest.0 - spike_x).abs() < 0.01,
        "{highest:?} against {spike_x}"
    );
    assert!(chart.contains("peak 9,000 bytes"), "the chart's peak");
    assert!(chart.contains("<title>a: peak 5,000 bytes at 50,007 seconds</title>"));
    assert!(chart.contains("<title>b: peak 4,000 bytes at 50,007 seconds</title>"));
    // At most as many samples as columns: every one is drawn.
    let few: String = (0..600)
        .map(|i| format!("BEGIN_SAMPLE {i}\na\t1\nEND_SAMPLE {i}\n"))
        .collect();
    assert_eq!(polygons(&svg(&read_hp(&few).unwrap()))[0].1.len(), 1200);
}

/// Times and values too small for the axis' steps (the smallest subnormal
/// number) still give a chart with numbers, not `NaN`.
#[test]
fn subnormal_numbers_draw_without_nan() {
    for text in [
        "JOB \"x\"\nBEGIN_SAMPLE 0\na 5e-324\nEND_SAMPLE 0\n",
        "JOB \"x\"\nBEGIN_SAMPLE 0\nEND_SAMPLE 0\nBEGIN_SAMPLE 5e-324\nEND_SAMPLE 5e-324\n",
        "JOB \"x\"\nBEGIN_SAMPLE 0\na 1e-310\nEND_SAMPLE 0\nBEGIN_SAMPLE 1e-310\nEND_SAMPLE 1e-310\n",
    ] {
        let chart = svg(&read_hp(text).unwrap());
        assert!(
            !chart.contains("NaN") && !chart.contains("inf"),
            "{text}: {chart}"
        );
        assert!(chart.matches("<text").count() < 30, "{text}: {chart}");
    }
}

/// XML 1.0 allows neither U+FFFE nor U+FFFF, even as a character
/// reference: a band, job or unit holding one (any string of a `.hp` file
/// is read as it is) must not reach the SVG, or the chart is not
/// well-formed and a browser shows an error in its place.
#[test]
fn noncharacters_xml_forbids_do_not_reach_the_svg() {
    let text = "JOB \"j\u{ffff}\"\nDATE \"d\u{fffe}\"\nSAMPLE_UNIT \"s\u{ffff}\"\n\
                VALUE_UNIT \"b\u{fffe}\"\nBEGIN_SAMPLE 0\nEND_SAMPLE 0\nBEGIN_SAMPLE 1\n\
                band\u{fffe}\u{ffff} 100\n(1)x/y 5\nEND_SAMPLE 1\n";
    let hp = read_hp(text).unwrap();
    assert_eq!(hp.bands[0], "band\u{fffe}\u{ffff}");
    let chart = svg(&hp);
    assert!(
        !chart.contains(['\u{fffe}', '\u{ffff}']),
        "a character XML forbids: {chart}"
    );
    assert!(chart.contains("band\u{fffd}\u{fffd}"), "{chart}");
    chromium_parses(
        &scratch("profile_heap_chart", "noncharacters"),
        "noncharacters",
        &chart,
    );
}

/// An error quotes at most a short excerpt of the line it is about, with
/// its control characters escaped: a file of one 10 MB line gives a
/// message of one short line, and a line of terminal escapes does not
/// clear the screen it is shown on.
#[test]
fn messages_quote_lines_short_and_escaped() {
    let long = format!("JOB \"{}\n", "x".repeat(10_000_000));
    let err = read_hp(&long).unwrap_err();
    assert!(err.len() < 300, "{} bytes: {}", err.len(), &err[..300]);
    assert!(err.starts_with("line 1: JOB wants a string in double quotes, found `\"xxx"));
    assert!(err.contains("x…`"), "{err}");
    let outside = format!("JOB \"j\"\n{} 5\n", "z".repeat(10_000_000));
    let err = read_hp(&outside).unwrap_err();
    assert!(err.len() < 300, "{} bytes", err.len());
    assert!(err.starts_with("line 2: `zzz"), "{err}");
    let no_value = format!("BEGIN_SAMPLE 0\n{}\n", "y".repeat(10_000_000));
    let err = read_hp(&no_value).unwrap_err();
    assert!(err.len() < 300, "{} bytes", err.len());
    let esc = "JOB \"j\"\n\u{1b}[2J\u{1b}[31mred 5\n";
    assert_eq!(
        read_hp(esc).unwrap_err(),
        "line 2: `\\u{1b}[2J\\u{1b}[31mred 5` is outside a sample: expected JOB, DATE, \
         SAMPLE_UNIT, VALUE_UNIT, MARK or BEGIN_SAMPLE"
    );
    // Lines ended by CR alone read as one line: the message says so.
    let cr = "JOB \"j\"\rDATE \"d\"\rBEGIN_SAMPLE 0\ra 1\rEND_SAMPLE 0\r";
    let err = read_hp(cr).unwrap_err();
    assert!(err.contains("carriage return alone"), "{err}");
    // CR LF is read as LF.
    let crlf = cr.replace('\r', "\r\n");
    assert_eq!(read_hp(&crlf).unwrap().times, [0.0]);
}
