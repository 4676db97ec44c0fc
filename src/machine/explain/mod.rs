//! The explorer: a whole run of the reference engine, step by step, as a
//! JSON trace (`--trace=json`) and as one self-contained page to step
//! through in a browser (`--explain`). One producer, two outputs: the
//! page is built from the trace's own lines.
//!
//! | file | job |
//! |---|---|
//! | `scope.rs` | the variables in scope at each expression, by name |
//! | `delta.rs` | the records a trace is made of: the state's change per step, closures by stable id |
//! | `tracer.rs` | the observer of the reference engine that makes the records (shadow heap, stable ids across collections) |
//! | `rules.rs` | each rule's name and what it does, in the papers' words |
//! | `json.rs` | records as JSON lines (docs/TRACE-FORMAT.md) |
//! | `page.rs` | the HTML page, with `page.js` and `page.css` |
//!
//! The engine's meaning is untouched: the tracer only reads the state the
//! engine shows it after each step ([`reference::Observer`]).

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use crate::machine::reference;
use crate::machine::{CostCentreMode, RunOptions, RunResult, TraceFormat};
use crate::stg::source::SourceMap;
use crate::stg::syntax::Program;

pub mod delta;
pub mod json;
pub mod page;
pub mod rules;
pub mod scope;
pub mod tracer;

use json::{JsonWriter, LineSink};
use tracer::Tracer;

/// `--max-steps` when `--explain` is given without it.
pub const EXPLAIN_DEFAULT_STEPS: u64 = 100_000;
/// The most steps a page holds: its data grows with them (about 150 bytes
/// a step), and a browser must load it.
pub const EXPLAIN_MAX_STEPS: u64 = 1_000_000;

/// What [`run`] gives back: the run's result and, when asked, the page.
pub struct Explained {
    pub result: RunResult,
    pub page: Option<String>,
}

/// Where the JSON lines go: the trace (a writer) and the page's data.
struct Lines<'w> {
    trace: Option<&'w mut dyn Write>,
    page: Option<String>,
}

impl LineSink for Lines<'_> {
    fn line(&mut self, json: &str) -> io::Result<()> {
        if let Some(page) = &mut self.page {
            page::embed_line(page, json);
        }
        if let Some(w) = &mut self.trace {
            w.write_all(json.as_bytes())?;
            w.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// The program's output on its way to `out`, kept for the trace.
struct Tee<'w> {
    out: &'w mut dyn Write,
    copy: Rc<RefCell<Vec<u8>>>,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.copy.borrow_mut().extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Run `program` on the reference engine, tracing it: JSON lines to
/// `trace` when `options.trace` asks for JSON (a text trace goes there as
/// usual), and the page (titled `title`) when `page` is given. The heap
/// profile, if asked for, goes to `heap_sink` as each census is taken (in
/// memory without one).
pub fn run(
    program: &Program,
    sources: &SourceMap,
    options: &RunOptions,
    out: &mut dyn Write,
    trace: &mut dyn Write,
    page: Option<&str>,
    heap_sink: Option<crate::machine::heap_profile::HeapProfileSink<'_>>,
) -> Explained {
    let code = match crate::machine::lower_for_run(program, sources) {
        Ok(code) => code,
        Err(failed) => {
            return Explained {
                result: *failed,
                page: None,
            };
        }
    };
    let heap = crate::machine::heap_profiler(options, crate::machine::shorten(heap_sink));
    let mut nothing = io::sink();
    let (text_trace, json_trace): (&mut dyn Write, Option<&mut dyn Write>) = match options.trace {
        Some(TraceFormat::Text) => (trace, None),
        Some(TraceFormat::Json) => (&mut nothing, Some(trace)),
        None => (&mut nothing, None),
    };
    let mut lines = Lines {
        trace: json_trace,
        page: page.map(|_| String::new()),
    };
    let printed = Rc::new(RefCell::new(Vec::new()));
    let (error, profile, stats, heap_profile) = {
        let mut writer = JsonWriter::new(sources, &mut lines);
        let mut tracer = Tracer::new(
            &code,
            options.cost_centres == CostCentreMode::Stacks,
            options.max_steps,
            &mut writer,
            printed.clone(),
        );
        let mut tee = Tee {
            out,
            copy: printed.clone(),
        };
        let mut m = reference::Machine::new(&code, sources, options)
            .with_heap_profiler(heap)
            .observed(&mut tracer);
        let error = m.run(&mut tee, text_trace).err();
        let _ = tee.flush();
        let r = (
            error,
            m.profile(options.reproducible),
            m.stats(),
            m.finish_heap_profile(),
        );
        drop(m);
        debug_assert_eq!(tracer.unknown_values(), 0, "the tracer lost a closure");
        r
    };
    if let Some(w) = &mut lines.trace {
        let _ = w.flush();
    }
    let page = match (page, lines.page) {
        (Some(title), Some(data)) => Some(page::build(title, &data)),
        _ => None,
    };
    Explained {
        result: RunResult {
            error,
            profile,
            stats,
            heap_profile,
        },
        page,
    }
}
