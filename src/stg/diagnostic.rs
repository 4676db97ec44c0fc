//! Front-end diagnostics: what went wrong, where, and what to do about it,
//! rendered with ariadne (file:line:col, the source line, an underline, a hint).

use crate::stg::source::SourceMap;
use crate::stg::syntax::Span;
use ariadne::{Config, Label, Report, ReportKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// One line saying what is wrong, e.g. "unbound variable `xs`".
    pub message: String,
    /// The place the message is about.
    pub span: Span,
    /// Text under the underline at `span`.
    pub label: String,
    /// Other places involved (e.g. the first of two conflicting uses).
    pub related: Vec<(Span, String)>,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            related: Vec::new(),
            help: None,
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders the diagnostic as ariadne does: a header with file:line:col,
    /// the source lines with underlines, and the help. A source line longer
    /// than [`LONG_LINE`] characters (generated code) is shown as a window
    /// around the place, in the same layout, instead of whole.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        if let Some(text) = self.render_long_line(sources) {
            return text;
        }
        let name = |span: Span| sources.file(span.file).name.clone();
        let kind = match self.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let mut report = Report::build(kind, (name(self.span), self.span.range()))
            .with_config(
                // Spans are byte offsets (ariadne's default counts characters).
                Config::default()
                    .with_color(color)
                    .with_index_type(ariadne::IndexType::Byte),
            )
            .with_message(&self.message);
        // Labels in source order, the primary label's file first: ariadne
        // shows labels of one file in one snippet only while their lines
        // ascend, and heads every snippet of the primary's file with the
        // primary's line:col, so a related label above the primary one
        // would get a snippet of its own under the wrong line:col.
        let mut labels: Vec<(Span, &str)> = vec![(self.span, self.label.as_str())];
        labels.extend(self.related.iter().map(|(s, l)| (*s, l.as_str())));
        labels.sort_by_key(|(s, _)| (s.file != self.span.file, s.file, s.start));
        for (order, (span, label)) in labels.into_iter().enumerate() {
            report = report.with_label(
                Label::new((name(span), span.range()))
                    .with_message(label)
                    .with_order(order as i32),
            );
        }
        if let Some(help) = &self.help {
            report = report.with_help(help);
        }
        let cache = ariadne::sources(
            sources
                .files()
                .map(|(_, f)| (f.name.clone(), f.text.clone())),
        );
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = report.finish().write(cache, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Source lines longer than this many characters are shown as a window.
pub const LONG_LINE: usize = 200;
/// Characters shown on each side of the place in such a window.
const WINDOW: usize = 60;

impl Diagnostic {
    /// The diagnostic laid out as ariadne lays it out, with the primary
    /// label's line cut to a window of [`WINDOW`] characters either side of
    /// it, when that line is longer than [`LONG_LINE`]; `None` otherwise.
    /// Related labels are listed as notes with their places.
    fn render_long_line(&self, sources: &SourceMap) -> Option<String> {
        let file = sources.file(self.span.file);
        let (line, col) = file.line_col(self.span.start as usize);
        let text = file.text.lines().nth(line - 1)?;
        let len = text.chars().count();
        if len <= LONG_LINE {
            return None;
        }
        let start = col - 1;
        let (end_line, end_col) = file.line_col(self.span.end as usize);
        let end = if end_line == line { end_col - 1 } else { len };
        let end = end.max(start + 1).min(len.max(start + 1));
        let lo = start.saturating_sub(WINDOW);
        let hi = (end + WINDOW).min(len);
        let mut shown: String = text.chars().skip(lo).take(hi - lo).collect();
        let lead = usize::from(lo > 0);
        if lo > 0 {
            shown.insert(0, '…');
        }
        if hi < len {
            shown.push('…');
        }
        let width = end - start;
        let num = line.to_string();
        let gutter = " ".repeat(num.len() + 2);
        let under_at = " ".repeat(lead + start - lo);
        let mut underline: String = (0..width)
            .map(|i| if i == width / 2 { '┬' } else { '─' })
            .collect();
        underline.truncate(underline.trim_end().len());
        let kind = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        let mut out = format!("{kind}: {}\n", self.message);
        out.push_str(&format!(
            "{gutter:>w$}╭─[ {}:{line}:{col} ]\n",
            file.name,
            w = gutter.len() - 1
        ));
        out.push_str(&format!("{gutter}│\n"));
        out.push_str(&format!(" {num} │ {shown}\n"));
        out.push_str(&format!("{gutter}│ {under_at}{underline}\n"));
        out.push_str(&format!(
            "{gutter}│ {under_at}{}╰── {}\n",
            " ".repeat(width / 2),
            self.label
        ));
        out.push_str(&format!("{gutter}│\n"));
        out.push_str(&format!(
            "{gutter}│ Note: line {line} has {len} characters; it is shown from column {}\n",
            lo + 1
        ));
        for (span, label) in &self.related {
            out.push_str(&format!(
                "{gutter}│ Note: {}: {label}\n",
                sources.location(*span)
            ));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("{gutter}│ Help: {help}\n"));
        }
        out.push_str(&format!("{}╯\n", "─".repeat(gutter.len())));
        Some(out)
    }
}

/// Renders every diagnostic, errors and warnings in source order.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by_key(|d| d.span);
    sorted.iter().map(|d| d.render(sources, color)).collect()
}
