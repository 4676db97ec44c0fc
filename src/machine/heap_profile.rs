//! Heap profiles (SEMANTICS.md "Heap, garbage collection, heap profiles"):
//! a census of the live heap every `--heap-interval` steps, grouped by cost
//! centre (or stack), by closure kind, or by description, written in GHC's
//! `.hp` format (readable by `hp2ps`), sample unit `steps`.
//! Engine-independent: a census is a function of the heap and the code.

use std::collections::BTreeMap;

use crate::gc::{Heap, Info, Tag};
use crate::machine::accounting::Accounting;
use crate::machine::code::{Code, ExprCode, VarRef};
use crate::profile::one_line;
use crate::stg::syntax::Flag;

/// How a census groups closures (`--heap-profile=cc|kind|descr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapProfileBy {
    CostCentre,
    Kind,
    Descr,
}

/// One census: the step it was taken at, and live bytes per group (sorted
/// by group name, so output is deterministic).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    pub step: u64,
    pub groups: Vec<(String, u64)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapProfile {
    pub samples: Vec<Sample>,
}

impl HeapProfile {
    /// Was the last census taken at `step`? The engines take their final
    /// census only if not: the heap is then the same, and a run that ends
    /// on a census step has one sample there, not two.
    pub fn has_sample_at(&self, step: u64) -> bool {
        self.samples.last().is_some_and(|s| s.step == step)
    }

    /// GHC's `.hp` text. `job` is the program's name; `date` is free text
    /// (pass a fixed string for reproducible output).
    pub fn to_hp(&self, job: &str, date: &str) -> String {
        let mut s = format!(
            "JOB \"{}\"\nDATE \"{}\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\n",
            one_line(job).replace('"', "'"),
            one_line(date).replace('"', "'")
        );
        // Sample times are written with a decimal point, as GHC writes
        // them: hp2ps reads a floating-point number after BEGIN_SAMPLE and
        // refuses `BEGIN_SAMPLE 0`.
        for sample in &self.samples {
            s.push_str(&format!("BEGIN_SAMPLE {}.0\n", sample.step));
            for (g, bytes) in &sample.groups {
                s.push_str(&format!("{}\t{}\n", one_line(g), bytes));
            }
            s.push_str(&format!("END_SAMPLE {}.0\n", sample.step));
        }
        s
    }
}

/// A `.hp` header's DATE for `secs` seconds since the Unix epoch, as GHC
/// writes it (`Tue Nov 24 08:16 2026`), in UTC. Short, so that it fits
/// `hp2ps`'s title bar beside the job's name and the total.
pub fn hp_date(secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = secs / 86_400;
    let (minute, hour) = (secs / 60 % 60, secs / 3600 % 24);
    // The civil date of a day number (Howard Hinnant's days_from_civil,
    // inverted), for days since 1970-01-01, which was a Thursday.
    let z = days + 719_468;
    let (era, doe) = (z / 146_097, z % 146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{} {} {day:02} {hour:02}:{minute:02} {year}",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize]
    )
}

/// Kind of a closure: `CON`, `FUN`, `PAP`, `THUNK`, `BLACKHOLE`.
pub fn kind(code: &Code, info: Info) -> &'static str {
    match info.tag {
        Tag::Con => "CON",
        Tag::Pap => "PAP",
        Tag::BlackHole | Tag::Entered => "BLACKHOLE",
        Tag::Lambda => match code.lambdas.get(info.index as usize) {
            Some(l) if l.arity > 0 => "FUN",
            Some(l) if l.flag == Flag::Reentrant => "CON",
            _ => "THUNK",
        },
        Tag::Ind | Tag::Forward => "IND",
    }
}

/// Description as in section 5.1: constructor name, function name, `PAP`,
/// the function a thunk applies, or `UNKNOWN`.
pub fn descr(code: &Code, info: Info) -> String {
    match info.tag {
        Tag::Con => code.con_name(info.index).to_string(),
        Tag::Pap => "PAP".to_string(),
        Tag::Ind | Tag::Forward => "IND".to_string(),
        Tag::Lambda | Tag::BlackHole | Tag::Entered => {
            let Some(l) = code.lambdas.get(info.index as usize) else {
                return "UNKNOWN".to_string();
            };
            if l.arity > 0 {
                return l.name.clone();
            }
            // Look through scc annotations to what the body applies or builds.
            let mut e = l.body;
            for _ in 0..1000 {
                match &code.expr(e).code {
                    ExprCode::Scc { body, .. } => e = *body,
                    ExprCode::App {
                        fun: VarRef::Global(g),
                        ..
                    } => {
                        return code.globals[*g as usize].name.clone();
                    }
                    ExprCode::Con { con, .. } => return code.con_name(*con).to_string(),
                    _ => break,
                }
            }
            "UNKNOWN".to_string()
        }
    }
}

/// A census of the heap as it is (call it right after a collection so that
/// only live closures are counted). Static closures are left out, as GHC
/// does; what a CAF evaluates to is counted.
pub fn census(heap: &Heap, code: &Code, acct: &Accounting, by: HeapProfileBy, step: u64) -> Sample {
    let mut groups: BTreeMap<String, u64> = BTreeMap::new();
    heap.walk(&mut |_, info, cc| {
        if matches!(info.tag, Tag::Ind | Tag::Forward) {
            return;
        }
        // Static closures (the top-level bindings themselves) are not counted.
        if matches!(info.tag, Tag::Lambda | Tag::BlackHole | Tag::Entered)
            && code
                .lambdas
                .get(info.index as usize)
                .is_some_and(|l| l.top_level)
        {
            return;
        }
        let key = match by {
            HeapProfileBy::Kind => kind(code, info).to_string(),
            HeapProfileBy::Descr => descr(code, info),
            HeapProfileBy::CostCentre => {
                // Innermost first, like GHC's `-hc` (`fib/main.f/main/CAF`).
                let name = acct.name(cc, &code.cost_centres);
                let mut parts: Vec<&str> = name.split(" > ").collect();
                parts.reverse();
                parts.join("/")
            }
        };
        *groups.entry(key).or_insert(0) += info.size() as u64 * 8;
    });
    Sample {
        step,
        groups: groups.into_iter().collect(),
    }
}

#[cfg(test)]
mod date_tests {
    use super::hp_date;

    #[test]
    fn dates_read_as_ghc_writes_them() {
        assert_eq!(hp_date(0), "Thu Jan 01 00:00 1970");
        // 2026-11-24 08:14:48 UTC, a Tuesday.
        assert_eq!(hp_date(1_795_508_088), "Tue Nov 24 08:14 2026");
        // A leap day, and the last minute of a century's leap year.
        assert_eq!(hp_date(951_782_400), "Tue Feb 29 00:00 2000");
        assert_eq!(hp_date(978_307_199), "Sun Dec 31 23:59 2000");
    }
}
