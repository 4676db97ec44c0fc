//! `stg-prof heap`: a heap profile (GHC's `.hp` format, as `stg-run
//! --heap-profile` writes it, or as GHC's `+RTS -h` does) drawn as a
//! stacked-area chart in SVG, like GHC's `hp2ps`, without needing GHC.
//!
//! The reader takes the format as `hp2ps` does: header lines `JOB`, `DATE`,
//! `SAMPLE_UNIT`, `VALUE_UNIT` (each a quoted string), then samples
//! `BEGIN_SAMPLE t` … `END_SAMPLE t` holding one `band value` line per group
//! (the band's name is everything before the last run of white space),
//! and `MARK t` lines (ignored). Errors name the line and say what was
//! expected.
//!
//! The chart, as `hp2ps` draws it: time (the sample unit) across, bytes up;
//! one band per group, stacked, the largest (by its sum over the samples) at
//! the bottom; at most [`MAX_BANDS`] bands, the smallest groups merged into
//! `OTHER` beyond that, as `hp2ps` does; a legend beside it, top band first;
//! each band's name, peak and time of peak in a tooltip (`<title>`).
//! Unlike `hp2ps`, a file with more samples than the plot has pixel
//! columns is drawn at one sample a column, the one of largest total (and
//! the first and last), so that the picture's size is bounded by its
//! width, not the file's length; the tooltips' peaks are of every sample.
//! Output depends on the file and the options alone (no clock, no
//! randomness).

use std::collections::HashMap;
use std::fmt::Write;

use crate::profile::{cut_to_chars, excerpt, markup_text};

/// The largest time or value read (about 2^60).
const MAX_NUMBER: f64 = 1e18;

/// Bands drawn before the rest are merged into `OTHER` (`hp2ps`'s
/// default; `--top`).
pub const MAX_BANDS: usize = 20;

/// The most bands `--top` may ask for.
pub const MAX_TOP: usize = 1000;

/// One heap profile as read: every band value of every complete sample,
/// held sparsely (a band absent from a sample takes no room), so memory
/// is linear in the file's size whatever its numbers of samples and bands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeapFile {
    pub job: String,
    pub date: String,
    pub sample_unit: String,
    pub value_unit: String,
    /// The samples' times, in time order.
    pub times: Vec<f64>,
    /// Band names, in order of first appearance.
    pub bands: Vec<String>,
    /// The band lines of the samples, in file order (so by sample).
    pub values: Vec<BandValue>,
    /// Where an unfinished end of the file begins (a run killed while
    /// writing, as GHC's file of an interrupted run ends), which is not
    /// drawn: the line of a last sample left without `END_SAMPLE`, or a
    /// last line outside a sample cut off in the middle (`BEGIN_SAM`).
    pub cut_short: Option<usize>,
}

/// One band line: the sample it is in, the band (an index into
/// [`HeapFile::bands`]) and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BandValue {
    pub sample: u32,
    pub band: u32,
    pub value: f64,
}

impl HeapFile {
    /// Sample `i`'s band lines, (name, value) in file order.
    pub fn sample(&self, i: usize) -> Vec<(&str, f64)> {
        let from = self.values.partition_point(|v| (v.sample as usize) < i);
        let to = self.values.partition_point(|v| (v.sample as usize) <= i);
        self.values[from..to]
            .iter()
            .map(|v| (self.bands[v.band as usize].as_str(), v.value))
            .collect()
    }
}

/// Reads `.hp` text.
pub fn read_hp(text: &str) -> Result<HeapFile, String> {
    let mut hp = HeapFile {
        sample_unit: "seconds".into(),
        value_unit: "bytes".into(),
        ..HeapFile::default()
    };
    // The band of each name read so far (names borrowed from `text`).
    let mut band_of: HashMap<&str, u32> = HashMap::new();
    // The sample being read: its time, the line it began on, its time as
    // written, and the numbers of band lines and bands before it.
    let mut open: Option<(f64, usize, &str, usize, usize)> = None;
    // The last sample's time as written.
    let mut last_time = "";
    // Messages quote numbers as written (an f64 would print
    // 18446744073709551615 as 18446744073709552000).
    let number = |s: &str, line: usize, what: &str| -> Result<f64, String> {
        let v = s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("line {line}: {what} `{}` is not a number", quote(s)))?;
        // Bytes and sample times of any real run are far below this; the
        // bound keeps every sum and axis of the chart finite.
        if v.abs() > MAX_NUMBER {
            return Err(format!(
                "line {line}: {what} {} is out of range (at most {MAX_NUMBER:e})",
                quote(s)
            ));
        }
        Ok(v)
    };
    let quoted = |s: &str, line: usize, key: &str| -> Result<String, String> {
        let s = s.trim();
        if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
            Ok(s[1..s.len() - 1].to_string())
        } else {
            Err(format!(
                "line {line}: {key} wants a string in double quotes, found `{}`",
                excerpt(s, QUOTED_LINE_CHARS)
            ))
        }
    };
    // Lines ended by a carriage return alone (classic Mac OS) would read
    // as one line; hp2ps reads them no better.
    if !text.contains('\n') && text.trim_end_matches('\r').contains('\r') {
        return Err(
            "its lines end in a carriage return alone (CR, not LF or CR LF), which neither \
             hp2ps nor stg-prof reads: convert them first (`tr '\\r' '\\n' < FILE.hp > fixed.hp`)"
                .to_string(),
        );
    }
    let mut saw_header = false;
    // A last line without its newline may be cut off in the middle.
    let partial_line = (!text.ends_with('\n')).then(|| text.lines().count());
    // The unfinished last line that stopped the reading, if any.
    let mut cut_line = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim_end();
        if l.trim().is_empty() {
            continue;
        }
        // Reads the line: `Ok(false)` stops the reading. Nothing is
        // changed by a line that is an error.
        let mut read_line = || -> Result<bool, String> {
            let (key, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            saw_header |= matches!(
                key,
                "JOB" | "DATE" | "SAMPLE_UNIT" | "VALUE_UNIT" | "MARK" | "BEGIN_SAMPLE"
            );
            match key {
                "JOB" => hp.job = quoted(rest, line, key)?,
                "DATE" => hp.date = quoted(rest, line, key)?,
                "SAMPLE_UNIT" => hp.sample_unit = quoted(rest, line, key)?,
                "VALUE_UNIT" => hp.value_unit = quoted(rest, line, key)?,
                "MARK" => {
                    number(rest, line, "MARK's time")?;
                }
                "BEGIN_SAMPLE" => {
                    if let Some((_, at, ..)) = open {
                        return Err(format!(
                            "line {line}: BEGIN_SAMPLE inside the sample begun on line {at}; \
                             end it with END_SAMPLE first"
                        ));
                    }
                    let t = number(rest, line, "BEGIN_SAMPLE's time")?;
                    open = Some((t, line, rest.trim(), hp.values.len(), hp.bands.len()));
                }
                "END_SAMPLE" => {
                    let Some((t, _, begun, ..)) = open else {
                        return Err(format!("line {line}: END_SAMPLE without a BEGIN_SAMPLE"));
                    };
                    let end = number(rest, line, "END_SAMPLE's time")?;
                    if end != t {
                        return Err(format!(
                            "line {line}: END_SAMPLE {} ends the sample begun at time {}",
                            quote(rest),
                            quote(begun)
                        ));
                    }
                    if let Some(last) = hp.times.last()
                        && t < *last
                    {
                        return Err(format!(
                            "line {line}: sample time {} is before the previous sample's {}; \
                             samples must come in time order",
                            quote(begun),
                            quote(last_time)
                        ));
                    }
                    open = None;
                    hp.times.push(t);
                    last_time = begun;
                }
                _ => {
                    if open.is_none() {
                        return Err(format!(
                            "line {line}: `{}` is outside a sample: expected JOB, DATE, \
                             SAMPLE_UNIT, VALUE_UNIT, MARK or BEGIN_SAMPLE",
                            excerpt(l, QUOTED_LINE_CHARS)
                        ));
                    }
                    let body = l.trim();
                    // (Looked at only on that last line: every other line goes
                    // straight to the checks below.)
                    let parses = || {
                        body.rfind(char::is_whitespace)
                            .and_then(|cut| body[cut..].trim().parse::<f64>().ok())
                            .is_some_and(|v| v >= 0.0)
                    };
                    if partial_line == Some(line) && !parses() {
                        // Cut off in the middle of a band's line: the sample
                        // is left open, and reported as cut short below.
                        return Ok(false);
                    }
                    let Some(cut) = body.rfind(char::is_whitespace) else {
                        return Err(format!(
                            "line {line}: `{}` wants a band name and a value",
                            excerpt(body, QUOTED_LINE_CHARS)
                        ));
                    };
                    let value = number(&body[cut..], line, "the value")?;
                    if value < 0.0 {
                        return Err(format!(
                            "line {line}: the value {} is negative",
                            quote(&body[cut..])
                        ));
                    }
                    let name = body[..cut].trim_end();
                    let next = hp.bands.len() as u32;
                    let band = *band_of.entry(name).or_insert_with(|| {
                        hp.bands.push(name.to_string());
                        next
                    });
                    hp.values.push(BandValue {
                        sample: hp.times.len() as u32,
                        band,
                        value,
                    });
                }
            }
            Ok(true)
        };
        match read_line() {
            Ok(true) => {}
            Ok(false) => break,
            // A last line without its newline that does not read was cut
            // off while it was written (`BEGIN_SAM`, `END_SAMPLE 1.` of
            // 1.25): the file ends before it, as a run killed while
            // writing leaves it (GHC's, any line).
            Err(_) if partial_line == Some(line) => {
                cut_line = Some(line);
                break;
            }
            Err(e) => return Err(e),
        }
    }
    if !saw_header {
        return Err(
            "no heap-profile lines (JOB, SAMPLE_UNIT, BEGIN_SAMPLE ...): is this a .hp file?"
                .to_string(),
        );
    }
    // A file cut short in its last sample, or in its last line, draws the
    // samples before it; with none complete there is nothing to draw.
    if let Some((_, at, _, values, bands)) = open {
        if hp.times.is_empty() {
            return Err(format!(
                "the sample begun on line {at} has no END_SAMPLE (is the file cut short?)"
            ));
        }
        hp.values.truncate(values);
        hp.bands.truncate(bands);
        hp.cut_short = Some(at);
    } else if let Some(line) = cut_line {
        if hp.times.is_empty() {
            return Err(format!(
                "line {line}, the last, ends in the middle (is the file cut short?) \
                 and no sample is complete before it"
            ));
        }
        hp.cut_short = Some(line);
    }
    Ok(hp)
}

/// Characters of a number quoted in an error message.
const QUOTED_CHARS: usize = 40;

/// Characters of a line (or a header's value) quoted in an error message.
const QUOTED_LINE_CHARS: usize = 80;

/// The text of a number as written, for an error message; cut short if
/// it is very long.
fn quote(s: &str) -> String {
    excerpt(s, QUOTED_CHARS)
}

/// Characters of a band's name shown in the legend.
const LEGEND_CHARS: usize = 36;

/// Colours of the bands, bottom first: one each for the most bands a chart
/// draws ([`MAX_BANDS`]), Tableau's twenty, the ten strong ones first, so
/// that neighbouring bands never share a colour.
const COLOURS: [&str; MAX_BANDS] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b6992d", "#499894", "#d37295", "#79706e",
    "#b07aa1", "#9d7660", "#a0cbe8", "#ffbe7d", "#8cd17d", "#ff9d9a", "#f1ce63", "#86bcb6",
    "#fabfd2", "#bab0ac", "#d4a6c8", "#d7b5a6",
];

/// A round step for about `n` ticks over `0..max`: 1, 2 or 5 times a
/// power of ten.
fn tick_step(max: f64, n: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let raw = max / n;
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    let f = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    let step = f * mag;
    // A `max` so small that its `n`th part or its power of ten is no
    // normal number (5e-324): one step, the whole axis.
    if step.is_normal() { step } else { max }
}

/// The samples drawn, in time order: every sample when there are at most
/// `columns` of them (about one a pixel column of the plot); otherwise,
/// in each of `columns` columns of the time axis, the sample whose total
/// is largest (the first of equal ones), and the first and last samples,
/// so that the chart keeps its whole time span and every column's peak,
/// and its size is bounded by the plot's, not the file's. `at(t)` is
/// where time `t` falls across the plot, from 0 to 1.
fn shown_samples(
    times: &[f64],
    totals: &[f64],
    at: impl Fn(f64) -> f64,
    columns: usize,
) -> Vec<usize> {
    let n = times.len();
    let columns = columns.max(1);
    if n <= columns {
        return (0..n).collect();
    }
    let mut best: Vec<Option<usize>> = vec![None; columns];
    for (i, &t) in times.iter().enumerate() {
        let c = ((at(t) * columns as f64) as usize).min(columns - 1);
        match best[c] {
            Some(b) if totals[b] >= totals[i] => {}
            _ => best[c] = Some(i),
        }
    }
    let mut shown: Vec<usize> = std::iter::once(0)
        .chain(best.into_iter().flatten())
        .chain(std::iter::once(n - 1))
        .collect();
    // The columns are in time order, and so are the samples in each.
    shown.dedup();
    shown
}

/// `v` for an axis label or a tooltip: an integer with thousands
/// separators, or a short decimal; negative with a minus sign (a GHC
/// file's sample times may be negative), but never `-0`.
fn label(v: f64) -> String {
    let text = if v.fract() == 0.0 && v.abs() < 1e15 {
        super::report::thousands(v.abs() as u128)
    } else {
        format!("{:.3}", v.abs())
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    };
    if v < 0.0 && text != "0" {
        format!("-{text}")
    } else {
        text
    }
}

/// How `stg-prof heap` draws a chart: its title (the job and date when
/// none), the number of bands before the rest are merged into `OTHER`,
/// and its size in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartOptions {
    pub title: Option<String>,
    pub top: usize,
    pub width: u32,
    pub height: u32,
}

/// The smallest and largest `--width` and `--height`.
pub const MIN_WIDTH: u32 = 480;
pub const MIN_HEIGHT: u32 = 240;
pub const MAX_SIZE: u32 = 20_000;

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions {
            title: None,
            top: MAX_BANDS,
            width: 960,
            height: 540,
        }
    }
}

/// A band to draw: its name, and which of the file's bands it is (several,
/// for `OTHER`).
struct Drawn {
    name: String,
    members: Members,
}

enum Members {
    One(u32),
    /// Every band not drawn on its own.
    Rest,
}

/// The bands to draw, bottom first: the `top` largest (by the sum of
/// their values over the samples), or `top - 1` and `OTHER` when there
/// are more, as `hp2ps` does.
fn bands(hp: &HeapFile, top: usize) -> Vec<Drawn> {
    let mut sums = vec![0.0f64; hp.bands.len()];
    for v in &hp.values {
        sums[v.band as usize] += v.value;
    }
    let mut order: Vec<u32> = (0..hp.bands.len() as u32).collect();
    // Largest sum first (the bottom band), ties by name.
    order.sort_by(|&a, &b| {
        sums[b as usize]
            .total_cmp(&sums[a as usize])
            .then_with(|| hp.bands[a as usize].cmp(&hp.bands[b as usize]))
    });
    let top = top.clamp(1, MAX_TOP);
    let merged = order.len() > top;
    if merged {
        order.truncate(top - 1);
    }
    let mut drawn: Vec<Drawn> = order
        .into_iter()
        .map(|b| Drawn {
            name: hp.bands[b as usize].clone(),
            members: Members::One(b),
        })
        .collect();
    if merged {
        drawn.push(Drawn {
            name: format!("OTHER ({} groups)", hp.bands.len() - drawn.len()),
            members: Members::Rest,
        });
    }
    drawn
}

/// The chart of `hp` as an SVG document, drawn with the default options.
pub fn svg(hp: &HeapFile) -> String {
    svg_with(hp, &ChartOptions::default())
}

/// The chart of `hp` as an SVG document.
pub fn svg_with(hp: &HeapFile, options: &ChartOptions) -> String {
    const LEFT: f64 = 90.0;
    const TOP: f64 = 50.0;
    const LEGEND_W: f64 = 270.0;
    const ROW: f64 = 20.0;
    let bands = bands(hp, options.top);
    let n = hp.times.len();
    let width = options.width.clamp(MIN_WIDTH, MAX_SIZE) as f64;
    let plot_w = width - LEFT - LEGEND_W;
    let plot_h = options.height.clamp(MIN_HEIGHT, MAX_SIZE) as f64 - TOP - 70.0;
    // The legend may need more room than the plot: the picture grows.
    let height = (TOP + plot_h + 70.0).max(TOP + bands.len() as f64 * ROW + 10.0);
    let times = &hp.times;
    let (t0, t1) = match (times.first(), times.last()) {
        (Some(&a), Some(&b)) => (a.min(0.0), b),
        _ => (0.0, 1.0),
    };
    let span = if t1 > t0 { t1 - t0 } else { 1.0 };
    // Which drawn band each of the file's bands is in.
    let mut drawn_as = vec![None; hp.bands.len()];
    let rest = bands
        .iter()
        .position(|b| matches!(b.members, Members::Rest));
    for (k, b) in bands.iter().enumerate() {
        if let Members::One(i) = b.members {
            drawn_as[i as usize] = Some(k);
        }
    }
    // Each drawn band's values, read from the sparse lines one band at a
    // time: the lines' indices grouped by drawn band (a counting sort).
    let mut starts = vec![0usize; bands.len() + 1];
    let group = |v: &BandValue| drawn_as[v.band as usize].or(rest);
    for v in &hp.values {
        if let Some(k) = group(v) {
            starts[k + 1] += 1;
        }
    }
    for k in 0..bands.len() {
        starts[k + 1] += starts[k];
    }
    let mut by_band = vec![0u32; starts[bands.len()]];
    let mut fill = starts.clone();
    for (i, v) in hp.values.iter().enumerate() {
        if let Some(k) = group(v) {
            by_band[fill[k]] = i as u32;
            fill[k] += 1;
        }
    }
    let series = |k: usize, out: &mut Vec<f64>| {
        out.clear();
        out.resize(n, 0.0);
        for &i in &by_band[starts[k]..starts[k + 1]] {
            let v = hp.values[i as usize];
            out[v.sample as usize] += v.value;
        }
    };
    let mut totals = vec![0.0; n];
    for v in &hp.values {
        totals[v.sample as usize] += v.value;
    }
    let peak = totals.iter().copied().fold(0.0, f64::max);
    let x = |t: f64| LEFT + (t - t0) / span * plot_w;
    let shown = shown_samples(times, &totals, |t| (x(t) - LEFT) / plot_w, plot_w as usize);
    drop(totals);
    let y_step = tick_step(peak, 5.0);
    let y_max = if peak > 0.0 {
        (peak / y_step).ceil() * y_step
    } else {
        1.0
    };
    let y = |v: f64| TOP + plot_h - v / y_max * plot_h;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let title = match &options.title {
        Some(t) => markup_text(t),
        None if hp.date.is_empty() => markup_text(&hp.job),
        None => format!("{} — {}", markup_text(&hp.job), markup_text(&hp.date)),
    };
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"28\" font-size=\"15\" font-weight=\"bold\">{title}</text>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"28\" text-anchor=\"end\">peak {} {}</text>",
        LEFT + plot_w,
        label(peak),
        markup_text(&hp.value_unit)
    );

    // Bands, bottom first: each a polygon along its top edge at every
    // sample shown and back along its bottom edge (`below`, by position
    // in `shown`).
    let mut below = vec![0.0; shown.len()];
    let mut vs = Vec::with_capacity(n);
    out.push_str("<g stroke=\"white\" stroke-width=\"0.5\">\n");
    for (k, band) in bands.iter().enumerate() {
        series(k, &mut vs);
        let colour = COLOURS[k % COLOURS.len()];
        let _ = write!(
            out,
            "<polygon class=\"band\" data-band=\"{}\" fill=\"{colour}\" points=\"",
            markup_text(&band.name)
        );
        for (j, &i) in shown.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{:.2},{:.2}", x(times[i]), y(below[j] + vs[i]));
        }
        for (j, &i) in shown.iter().enumerate().rev() {
            let _ = write!(out, " {:.2},{:.2}", x(times[i]), y(below[j]));
        }
        let (mut top_v, mut top_t) = (0.0, 0.0);
        for i in 0..n {
            if vs[i] > top_v {
                (top_v, top_t) = (vs[i], times[i]);
            }
        }
        let _ = writeln!(
            out,
            "\"><title>{}: peak {} {} at {} {}</title></polygon>",
            markup_text(&band.name),
            label(top_v),
            markup_text(&hp.value_unit),
            label(top_t),
            markup_text(&hp.sample_unit)
        );
        for (j, &i) in shown.iter().enumerate() {
            below[j] += vs[i];
        }
    }
    out.push_str("</g>\n");

    // Axes, ticks and their labels.
    let _ = writeln!(
        out,
        "<g stroke=\"black\" fill=\"none\"><path d=\"M{LEFT},{TOP} V{} H{}\"/></g>",
        TOP + plot_h,
        LEFT + plot_w
    );
    let mut v = 0.0;
    // (At most about 10 ticks: y_max is a multiple of y_step near 5 of
    // them; the count bound is a guard, not a layout rule.)
    for _ in 0..100 {
        if v > y_max + y_step / 2.0 {
            break;
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{:.2}\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>",
            LEFT - 6.0,
            y(v),
            label(v)
        );
        v += y_step;
    }
    let x_step = tick_step(span, (plot_w / 100.0).max(2.0));
    let mut t = (t0 / x_step).ceil() * x_step;
    for _ in 0..1000 {
        if t > t1 + x_step / 1e6 {
            break;
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.2}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x(t),
            TOP + plot_h + 18.0,
            label(t)
        );
        t += x_step;
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        LEFT + plot_w / 2.0,
        TOP + plot_h + 40.0,
        markup_text(&hp.sample_unit)
    );
    let _ = writeln!(
        out,
        "<text transform=\"translate(24,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        TOP + plot_h / 2.0,
        markup_text(&hp.value_unit)
    );

    // Legend, top band first (the order the bands are stacked, read
    // downwards).
    let lx = LEFT + plot_w + 24.0;
    for (row, (k, band)) in bands.iter().enumerate().rev().enumerate() {
        let ly = TOP + row as f64 * ROW;
        let name = &band.name;
        // Long names (cost-centre stacks) are cut to fit; the tooltip has
        // the whole name.
        let shown = cut_to_chars(name, LEGEND_CHARS);
        let _ = writeln!(
            out,
            "<rect x=\"{lx}\" y=\"{ly}\" width=\"14\" height=\"14\" fill=\"{}\"/>\
             <text class=\"legend\" x=\"{}\" y=\"{}\"><title>{}</title>{}</text>",
            COLOURS[k % COLOURS.len()],
            lx + 20.0,
            ly + 11.0,
            markup_text(name),
            markup_text(&shown)
        );
    }
    if bands.is_empty() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no live data in any sample</text>",
            LEFT + plot_w / 2.0,
            TOP + plot_h / 2.0
        );
    }
    out.push_str("</svg>\n");
    out
}
