//! The JSON trace: a header line, then one line per [`Record`]
//! (docs/TRACE-FORMAT.md says every field; `docs/trace-format.schema.json`
//! is its JSON Schema). The same lines feed `--trace=json` and the
//! explorer page.

use std::fmt::Write as _;
use std::io;

use crate::machine::code::{Code, ExprId, LambdaCode};
use crate::machine::explain::delta::*;
use crate::machine::explain::rules::RULES;
use crate::machine::explain::tracer::{Header, RecordSink};
use crate::stg::source::SourceMap;
use crate::stg::syntax::{Flag, Span};

/// The format's name and version, in every header.
pub const FORMAT: &str = "stg-run trace";
pub const VERSION: u32 = 1;

/// Where the lines go.
pub trait LineSink {
    /// One line of JSON, without its newline.
    fn line(&mut self, json: &str) -> io::Result<()>;
}

/// Writes records as JSON lines.
pub struct JsonWriter<'s, 'm> {
    sources: &'m SourceMap,
    out: &'s mut dyn LineSink,
    line: String,
    /// Constructor names, by id.
    cons: Vec<String>,
    /// What a lambda form's closure is (`function`, `reentrant`, `thunk`),
    /// by lambda id.
    lambda_kinds: Vec<&'static str>,
}

impl<'s, 'm> JsonWriter<'s, 'm> {
    pub fn new(sources: &'m SourceMap, out: &'s mut dyn LineSink) -> JsonWriter<'s, 'm> {
        JsonWriter {
            sources,
            out,
            line: String::new(),
            cons: Vec::new(),
            lambda_kinds: Vec::new(),
        }
    }

    fn flush_line(&mut self) -> io::Result<()> {
        let r = self.out.line(&self.line);
        self.line.clear();
        r
    }
}

/// `s` as a JSON string.
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_val(out: &mut String, v: Val) {
    match v {
        Val::Int(k) => {
            let _ = write!(out, "\"{k}#\"");
        }
        Val::Ref(id) => {
            let _ = write!(out, "\"@{id}\"");
        }
    }
}

fn push_vals(out: &mut String, vs: &[Val]) {
    out.push('[');
    for (i, v) in vs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_val(out, *v);
    }
    out.push(']');
}

fn push_env(out: &mut String, env: &Env<'_>) {
    out.push('{');
    for (i, (name, v)) in env.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, name);
        out.push(':');
        push_val(out, *v);
    }
    out.push('}');
}

fn flag(f: Flag) -> &'static str {
    match f {
        Flag::Updatable => "u",
        Flag::SingleEntry => "s",
        Flag::Reentrant => "r",
        Flag::NonUpdatable => "n",
    }
}

impl JsonWriter<'_, '_> {
    fn push_span(&mut self, span: Span) {
        let file = self.sources.file(span.file);
        let (line, col) = file.line_col(span.start as usize);
        let _ = write!(
            self.line,
            "{{\"file\":{},\"start\":{},\"end\":{},\"line\":{line},\"col\":{col}}}",
            span.file, span.start, span.end
        );
    }

    fn has_span(&self, span: Span) -> bool {
        span != Span::default() && (span.file as usize) < self.sources.files().count()
    }

    fn push_lambda(&mut self, lam: &LambdaCode) {
        let nfree = lam.free.len();
        let names = |from: usize, n: usize| -> Vec<&str> {
            (from..from + n)
                .map(|i| lam.slot_names.get(i).map_or("?", String::as_str))
                .collect()
        };
        self.line.push_str("{\"name\":");
        push_str(&mut self.line, &lam.name);
        let _ = write!(
            self.line,
            ",\"flag\":\"{}\",\"arity\":{},\"free\":[",
            flag(lam.flag),
            lam.arity
        );
        for (i, n) in names(0, nfree).into_iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            push_str(&mut self.line, n);
        }
        self.line.push_str("],\"args\":[");
        for (i, n) in names(nfree, lam.arity as usize).into_iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            push_str(&mut self.line, n);
        }
        let _ = write!(
            self.line,
            "],\"body\":{},\"top_level\":{},\"span\":",
            lam.body, lam.top_level
        );
        self.push_span(lam.span);
        self.line.push('}');
    }

    /// The code of synthetic expressions, which have no source of their
    /// own.
    fn synthetic(code: &Code, e: ExprId) -> Option<String> {
        if e == code.main_app {
            let main = code
                .globals
                .get(code.main as usize)
                .map_or("main", |g| &g.name);
            return Some(format!("{main} {{}}"));
        }
        if e == code.pap_app {
            return Some("f {xs}".to_string());
        }
        let c = code.con_bodies.iter().position(|&b| b == e)?;
        let n = code.cons.get(c).map_or(0, |c| c.arity);
        let xs: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
        Some(format!("{} {{{}}}", code.con_name(c as u32), xs.join(",")))
    }

    fn push_closure(&mut self, id: ClosureId, c: &Closure) {
        let _ = write!(self.line, "{{\"id\":{id},\"kind\":");
        match c.kind {
            Kind::Lambda(l) => {
                let kind = self
                    .lambda_kinds
                    .get(l as usize)
                    .copied()
                    .unwrap_or("thunk");
                let _ = write!(self.line, "\"{kind}\",\"lambda\":{l}");
            }
            Kind::Con(k) => {
                self.line.push_str("\"constructor\",\"con\":");
                let name = self.cons.get(k as usize).map_or("?", String::as_str);
                let mut s = String::new();
                push_str(&mut s, name);
                self.line.push_str(&s);
            }
            Kind::Pap => self.line.push_str("\"pap\""),
            Kind::Ind => self.line.push_str("\"indirection\""),
            Kind::BlackHole(l) => {
                let _ = write!(self.line, "\"blackhole\",\"lambda\":{l}");
            }
            Kind::Entered(l) => {
                let _ = write!(self.line, "\"entered\",\"lambda\":{l}");
            }
        }
        let _ = write!(self.line, ",\"cc\":{}", c.cc);
        if !c.values.is_empty() {
            self.line.push_str(",\"values\":");
            push_vals(&mut self.line, &c.values);
        }
        self.line.push('}');
    }

    fn push_stack<T>(
        &mut self,
        key: &str,
        d: &StackDelta<T>,
        item: impl Fn(&mut String, &T, &JsonWriter<'_, '_>),
    ) {
        if d.is_empty() {
            return;
        }
        let _ = write!(self.line, ",\"{key}\":{{");
        if d.pop > 0 {
            let _ = write!(self.line, "\"pop\":{}", d.pop);
        }
        if !d.push.is_empty() {
            if d.pop > 0 {
                self.line.push(',');
            }
            self.line.push_str("\"push\":[");
            for (i, t) in d.push.iter().enumerate() {
                if i > 0 {
                    self.line.push(',');
                }
                let mut s = std::mem::take(&mut self.line);
                item(&mut s, t, self);
                self.line = s;
            }
            self.line.push(']');
        }
        self.line.push('}');
    }
}

impl RecordSink for JsonWriter<'_, '_> {
    fn header(&mut self, h: &Header<'_>) -> io::Result<()> {
        let code = h.code;
        self.cons = code.cons.iter().map(|c| c.name.clone()).collect();
        self.lambda_kinds = code
            .lambdas
            .iter()
            .map(|lam| match lam.flag {
                _ if lam.arity > 0 => "function",
                Flag::Reentrant => "reentrant",
                _ => "thunk",
            })
            .collect();
        let _ = write!(
            self.line,
            "{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"cost_centres\":\"{}\",\"max_steps\":",
            if h.stacks_mode { "stacks" } else { "flat" }
        );
        match h.max_steps {
            Some(n) => {
                let _ = write!(self.line, "{n}");
            }
            None => self.line.push_str("null"),
        }
        self.line.push_str(",\"files\":[");
        for (i, (_, f)) in self.sources.files().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            self.line.push_str("{\"name\":");
            push_str(&mut self.line, &f.name);
            self.line.push_str(",\"text\":");
            push_str(&mut self.line, &f.text);
            self.line.push('}');
        }
        self.line.push_str("],\"modules\":[");
        let table = &code.cost_centres;
        for (i, m) in table.modules.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            push_str(&mut self.line, m);
        }
        self.line.push_str("],\"cost_centre_table\":[");
        for (i, c) in table.cost_centres.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            let _ = write!(self.line, "{{\"id\":{},\"name\":", i + 1);
            push_str(&mut self.line, &c.name);
            self.line.push_str(",\"module\":");
            let module = table
                .modules
                .get(c.module as usize - 1)
                .map_or("?", String::as_str);
            push_str(&mut self.line, module);
            self.line.push('}');
        }
        self.line.push_str("],\"constructors\":[");
        for (i, c) in code.cons.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            self.line.push_str("{\"name\":");
            push_str(&mut self.line, &c.name);
            let _ = write!(self.line, ",\"arity\":{}}}", c.arity);
        }
        self.line.push_str("],\"lambdas\":[");
        for (i, lam) in code.lambdas.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            self.push_lambda(lam);
        }
        self.line.push_str("],\"exprs\":[");
        for (i, node) in code.exprs.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            self.line.push('{');
            let mut sep = "";
            if let Some(text) = Self::synthetic(code, i as ExprId) {
                self.line.push_str("\"code\":");
                push_str(&mut self.line, &text);
                sep = ",";
            }
            if self.has_span(node.span) {
                self.line.push_str(sep);
                self.line.push_str("\"span\":");
                self.push_span(node.span);
            }
            self.line.push('}');
        }
        self.line.push_str("],\"globals\":[");
        for (i, g) in code.globals.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            self.line.push_str("{\"name\":");
            push_str(&mut self.line, &g.name);
            let module = code
                .modules
                .get(g.module as usize)
                .map_or("?", String::as_str);
            self.line.push_str(",\"module\":");
            push_str(&mut self.line, module);
            let _ = write!(
                self.line,
                ",\"lambda\":{},\"closure\":{}}}",
                g.lambda,
                h.globals.get(i).copied().unwrap_or(0)
            );
        }
        self.line.push_str("],\"rules\":[");
        for (i, r) in RULES.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            let _ = write!(self.line, "{{\"rule\":\"{}\",\"name\":", r.rule.name());
            push_str(&mut self.line, r.name);
            self.line.push_str(",\"says\":");
            push_str(&mut self.line, r.says);
            self.line.push('}');
        }
        self.line.push_str("]}");
        self.flush_line()
    }

    fn record(&mut self, r: &Record<'_>) -> io::Result<()> {
        let event = match &r.event {
            Event::Start => "start",
            Event::Step(_) => "step",
            Event::Force => "force",
            Event::End(_) => "end",
        };
        let _ = write!(self.line, "{{\"event\":\"{event}\",\"step\":{}", r.step);
        match &r.event {
            Event::Step(rule) => {
                let _ = write!(self.line, ",\"rule\":\"{}\"", rule.name());
            }
            Event::End(outcome) => match outcome {
                Outcome::Halted => self.line.push_str(",\"outcome\":\"halted\""),
                Outcome::StepLimit { limit, rule } => {
                    let _ = write!(
                        self.line,
                        ",\"outcome\":\"step_limit\",\"limit\":{limit},\"rule\":\"{rule}\""
                    );
                }
                Outcome::Error { message, rule } => {
                    self.line.push_str(",\"outcome\":\"error\",\"message\":");
                    push_str(&mut self.line, message);
                    let _ = write!(self.line, ",\"rule\":\"{rule}\"");
                }
            },
            Event::Start | Event::Force => {}
        }
        if let Some(c) = &r.control {
            self.line.push_str(",\"control\":");
            match c {
                Control::Eval { expr, env } => {
                    let _ = write!(self.line, "{{\"eval\":{expr}");
                    match env {
                        EvalEnv::Full(env) => {
                            self.line.push_str(",\"env\":");
                            push_env(&mut self.line, env);
                        }
                        EvalEnv::Extends { base, bind } => {
                            let base = match base {
                                EnvBase::Control => "control",
                                EnvBase::Continuation => "continuation",
                            };
                            let _ = write!(self.line, ",\"extends\":\"{base}\",\"bind\":");
                            push_env(&mut self.line, bind);
                        }
                    }
                    self.line.push('}');
                }
                Control::Enter(v) => {
                    self.line.push_str("{\"enter\":");
                    push_val(&mut self.line, *v);
                    self.line.push('}');
                }
                Control::ReturnCon(c, ws) => {
                    self.line.push_str("{\"return_con\":");
                    let name = self.cons.get(*c as usize).map_or("?", String::as_str);
                    let mut s = String::new();
                    push_str(&mut s, name);
                    self.line.push_str(&s);
                    self.line.push_str(",\"fields\":");
                    push_vals(&mut self.line, ws);
                    self.line.push('}');
                }
                Control::ReturnInt(k) => {
                    let _ = write!(self.line, "{{\"return_int\":\"{k}#\"}}");
                }
            }
        }
        self.push_stack("as", &r.args, |s, v, _| push_val(s, *v));
        self.push_stack("rs", &r.rs, |s, c, _| {
            let _ = write!(s, "{{\"case\":{},\"env\":", c.case);
            push_env(s, &c.env);
            let _ = write!(s, ",\"as_height\":{},\"cc\":{}}}", c.as_height, c.cc);
        });
        self.push_stack("us", &r.us, |s, f, _| {
            s.push_str("{\"update\":");
            match f.update {
                Some(id) => {
                    let _ = write!(s, "\"@{id}\"");
                }
                None => s.push_str("null"),
            }
            let _ = write!(
                s,
                ",\"as_height\":{},\"rs_height\":{},\"cc\":{}}}",
                f.as_height, f.rs_height, f.cc
            );
        });
        if let Some(cc) = r.cc {
            let _ = write!(self.line, ",\"cc\":{cc}");
        }
        if !r.heap.is_empty() {
            self.line.push_str(",\"heap\":{");
            let mut sep = "";
            if !r.heap.free.is_empty() {
                self.line.push_str("\"free\":[");
                for (i, id) in r.heap.free.iter().enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    let _ = write!(self.line, "{id}");
                }
                self.line.push(']');
                sep = ",";
            }
            if !r.heap.forward.is_empty() {
                let _ = write!(self.line, "{sep}\"forward\":[");
                for (i, (from, to)) in r.heap.forward.iter().enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    let _ = write!(self.line, "[{from},{to}]");
                }
                self.line.push(']');
                sep = ",";
            }
            for (key, list) in [("alloc", &r.heap.alloc), ("update", &r.heap.update)] {
                if list.is_empty() {
                    continue;
                }
                let _ = write!(self.line, "{sep}\"{key}\":[");
                for (i, (id, c)) in list.iter().enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    self.push_closure(*id, c);
                }
                self.line.push(']');
                sep = ",";
            }
            self.line.push('}');
        }
        if !r.counters.is_empty() {
            self.line.push_str(",\"counters\":[");
            for (i, (e, c)) in r.counters.iter().enumerate() {
                if i > 0 {
                    self.line.push(',');
                }
                let all = c.fields();
                // Trailing zeros are left out.
                let n = all.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
                let _ = write!(self.line, "[{e}");
                for x in &all[..n] {
                    let _ = write!(self.line, ",{x}");
                }
                self.line.push(']');
            }
            self.line.push(']');
        }
        if !r.stacks.is_empty() {
            self.line.push_str(",\"stacks\":[");
            for (i, s) in r.stacks.iter().enumerate() {
                if i > 0 {
                    self.line.push(',');
                }
                let _ = write!(
                    self.line,
                    "{{\"id\":{},\"parent\":{},\"cc\":{}}}",
                    s.id, s.parent, s.cc
                );
            }
            self.line.push(']');
        }
        if !r.output.is_empty() {
            self.line.push_str(",\"output\":");
            push_str(&mut self.line, &r.output);
        }
        self.line.push('}');
        self.flush_line()
    }
}
