//! Front-end diagnostics: what went wrong, where, and what to do about it,
//! rendered with ariadne (file:line:col, the source line, an underline, a hint).

use crate::stg::source::SourceMap;
use crate::stg::syntax::{FileId, Span};
use ariadne::{Cache, Config, Label, Report, ReportKind};
use std::fmt;

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

    /// Renders the diagnostic alone (see [`Renderer`], which renders many
    /// against one index of the sources).
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        Renderer::new(sources, color).render(self)
    }
}

/// A file as ariadne names it: its index, which [`SourceCache`] looks up,
/// and its name, which ariadne prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FileRef<'s> {
    id: FileId,
    /// Which snippet of the file (see [`Renderer::snippets`]).
    part: u32,
    name: &'s str,
}

impl fmt::Display for FileRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// ariadne's line index of each file, built once, when a diagnostic first
/// shows a line of that file (ariadne's own `sources` cache is built from
/// owned copies of every file, so building it per diagnostic made rendering
/// quadratic).
struct SourceCache<'s> {
    sources: &'s SourceMap,
    indexed: Vec<Option<ariadne::Source<&'s str>>>,
}

impl<'s> Cache<FileRef<'s>> for SourceCache<'s> {
    type Storage = &'s str;

    fn fetch(&mut self, file: &FileRef<'s>) -> Result<&ariadne::Source<&'s str>, impl fmt::Debug> {
        let sources = self.sources;
        match self.indexed.get_mut(file.id as usize) {
            Some(slot) => Ok(slot
                .get_or_insert_with(|| ariadne::Source::from(sources.file(file.id).text.as_str()))),
            None => Err(format!("no file {}", file.name)),
        }
    }

    fn display<'a>(&self, file: &'a FileRef<'s>) -> Option<impl fmt::Display + 'a> {
        Some(file.name)
    }
}

/// Renders diagnostics against the files of a run, indexing each file once
/// however many diagnostics there are: rendering one costs time in the
/// size of what it shows, not in the size of the files.
pub struct Renderer<'s> {
    sources: &'s SourceMap,
    cache: SourceCache<'s>,
    color: bool,
}

impl<'s> Renderer<'s> {
    pub fn new(sources: &'s SourceMap, color: bool) -> Renderer<'s> {
        Renderer {
            sources,
            cache: SourceCache {
                sources,
                indexed: sources.files().map(|_| None).collect(),
            },
            color,
        }
    }

    /// Renders a diagnostic as ariadne does: a header with file:line:col,
    /// the source lines with underlines, and the help. When a line it
    /// points into is longer than [`LONG_LINE`] characters (generated
    /// code), the main line is shown as a window around the place, in the
    /// same layout, and the other places as notes.
    pub fn render(&mut self, d: &Diagnostic) -> String {
        if self.touches_long_line(d) {
            return d.render_long_line(self.sources);
        }
        let sources = self.sources;
        let name = |span: Span| FileRef {
            id: span.file,
            part: 0,
            name: sources.file(span.file).name.as_str(),
        };
        let kind = match d.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        // ariadne is given character offsets (its default): with byte
        // offsets it takes the character offset of a snippet's first label
        // for a byte offset in the snippet's header.
        let chars = |span: Span| {
            let file = sources.file(span.file);
            let at = |offset: u32| file.chars_before((offset as usize).min(file.text.len()));
            at(span.start)..at(span.end)
        };
        let snippets = self.snippets(d);
        let primary_part = snippets.first().map_or(0, |(_, part, _)| *part);
        let mut report = Report::build(
            kind,
            (
                FileRef {
                    part: primary_part,
                    ..name(d.span)
                },
                chars(d.span),
            ),
        )
        .with_config(Config::default().with_color(self.color))
        .with_message(&d.message);
        for (order, (span, part, label)) in snippets.into_iter().enumerate() {
            let file = FileRef { part, ..name(span) };
            report = report.with_label(
                Label::new((file, chars(span)))
                    .with_message(label)
                    .with_order(order as i32),
            );
        }
        if let Some(help) = &d.help {
            report = report.with_help(help);
        }
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = report.finish().write(&mut self.cache, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The diagnostic's labels in the order ariadne is to show them, each
    /// with the snippet it goes in: ariadne shows the labels of one source
    /// in one snippet while their lines ascend, walking every line between
    /// them (and heads every snippet of the primary's source with the
    /// primary's line:col). So labels are grouped per file in source order,
    /// a new snippet (a `part` of the file, its own source to ariadne)
    /// starting where the next label is more than [`SNIPPET_GAP`] lines
    /// below the last; the primary's snippet comes first. A label that
    /// spans more than [`SNIPPET_GAP`] lines is cut to its first line. So
    /// rendering walks at most a few hundred lines per label, wherever the
    /// labels are.
    fn snippets<'d>(&self, d: &'d Diagnostic) -> Vec<(Span, u32, &'d str)> {
        let lines = |span: Span| {
            let file = self.sources.file(span.file);
            (
                file.line_col(span.start as usize).0,
                file.line_col(span.end as usize).0,
            )
        };
        // (span, first line, last line, label, is primary)
        let mut labels: Vec<(Span, usize, usize, &str, bool)> =
            std::iter::once((d.span, d.label.as_str(), true))
                .chain(d.related.iter().map(|(s, l)| (*s, l.as_str(), false)))
                .map(|(mut span, label, primary)| {
                    let (first, mut last) = lines(span);
                    if last - first > SNIPPET_GAP {
                        let file = self.sources.file(span.file);
                        span.end = file.line_range(first).end.max(span.start as usize) as u32;
                        last = first;
                    }
                    (span, first, last, label, primary)
                })
                .collect();
        labels.sort_by_key(|(s, ..)| (s.file != d.span.file, s.file, s.start));
        let mut parted: Vec<(Span, u32, &str, bool)> = Vec::with_capacity(labels.len());
        let mut part = 0;
        // The file and the last line of the snippet being filled.
        let mut open: Option<(FileId, usize)> = None;
        for (span, first, last, label, primary) in labels {
            open = match open {
                Some((file, end)) if file == span.file && first <= end + SNIPPET_GAP => {
                    Some((file, end.max(last)))
                }
                Some(_) => {
                    part += 1;
                    Some((span.file, last))
                }
                None => Some((span.file, last)),
            };
            parted.push((span, part, label, primary));
        }
        let primary_part = parted.iter().find(|l| l.3).map_or(0, |l| l.1);
        // Stable: the primary's snippet first, the rest in source order.
        parted.sort_by_key(|l| l.1 != primary_part);
        parted
            .into_iter()
            .map(|(span, part, label, _)| (span, part, label))
            .collect()
    }

    /// Whether a place of the diagnostic is on a line longer than
    /// [`LONG_LINE`] characters (ariadne would show such a line whole, and
    /// count its characters for every label on it).
    fn touches_long_line(&self, d: &Diagnostic) -> bool {
        let places = std::iter::once(d.span).chain(d.related.iter().map(|(s, _)| *s));
        places.into_iter().any(|span| {
            let file = self.sources.file(span.file);
            [span.start, span.end].into_iter().any(|at| {
                let (line, _) = file.line_col(at as usize);
                file.char_len(file.line_range(line)) > LONG_LINE
            })
        })
    }
}

/// Labels more than this many lines apart are shown in snippets of their own.
const SNIPPET_GAP: usize = 100;

/// Source lines longer than this many characters are shown as a window.
pub const LONG_LINE: usize = 200;
/// Characters shown on each side of the place in such a window.
const WINDOW: usize = 60;

impl Diagnostic {
    /// The diagnostic laid out as ariadne lays it out, with the primary
    /// label's line cut to a window of [`WINDOW`] characters either side of
    /// it (and the underline to at most [`WINDOW`] characters), and the
    /// related labels listed as notes with their places. Its cost is the
    /// size of what it shows, whatever the length of the line.
    fn render_long_line(&self, sources: &SourceMap) -> String {
        let file = sources.file(self.span.file);
        let (line, col) = file.line_col(self.span.start as usize);
        let line_bytes = file.line_range(line);
        let text = &file.text[line_bytes.clone()];
        let len = file.char_len(line_bytes.clone());
        // Byte offsets within the line.
        let start_byte =
            (self.span.start as usize).clamp(line_bytes.start, line_bytes.end) - line_bytes.start;
        let end_byte =
            (self.span.end as usize).clamp(line_bytes.start, line_bytes.end) - line_bytes.start;
        // The underline: at least one character, at most WINDOW.
        let under: usize = text[start_byte..end_byte].chars().take(WINDOW).count();
        let width = under.max(1);
        let end_byte = text[start_byte..]
            .char_indices()
            .nth(width)
            .map_or(text.len(), |(i, _)| start_byte + i);
        // WINDOW characters either side.
        let lo_byte = text[..start_byte]
            .char_indices()
            .rev()
            .take(WINDOW)
            .last()
            .map_or(start_byte, |(i, _)| i);
        let hi_byte = text[end_byte..]
            .char_indices()
            .nth(WINDOW)
            .map_or(text.len(), |(i, _)| end_byte + i);
        let start = col - 1;
        let lo = start - text[lo_byte..start_byte].chars().count();
        let mut shown = text[lo_byte..hi_byte].to_string();
        let lead = usize::from(lo_byte > 0);
        if lo_byte > 0 {
            shown.insert(0, '…');
        }
        if hi_byte < text.len() {
            shown.push('…');
        }
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
        if len > LONG_LINE {
            out.push_str(&format!(
                "{gutter}│ Note: line {line} has {len} characters; it is shown from column {}\n",
                lo + 1
            ));
        }
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
        out
    }
}

/// Diagnostics rendered in source order, and what was left out.
#[derive(Debug)]
pub struct Listing {
    pub text: String,
    /// Errors and warnings after the last error listed, not rendered.
    pub hidden_errors: usize,
    pub hidden_warnings: usize,
}

/// Renders diagnostics, errors and warnings in source order, stopping after
/// the `max_errors`-th error (all of them with `None`, like GCC's
/// `-fmax-errors=0`); the rest are counted, not rendered. Each file is
/// indexed once, so the time is linear in the number of diagnostics
/// rendered and the size of the files.
pub fn render_listing(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    color: bool,
    max_errors: Option<usize>,
) -> Listing {
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by_key(|d| d.span);
    let mut renderer = Renderer::new(sources, color);
    let mut listing = Listing {
        text: String::new(),
        hidden_errors: 0,
        hidden_warnings: 0,
    };
    let mut errors = 0;
    for d in sorted {
        if max_errors.is_some_and(|max| errors >= max) {
            if d.is_error() {
                listing.hidden_errors += 1;
            } else {
                listing.hidden_warnings += 1;
            }
            continue;
        }
        errors += usize::from(d.is_error());
        listing.text.push_str(&renderer.render(d));
    }
    listing
}

/// Renders every diagnostic, errors and warnings in source order.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    render_listing(diagnostics, sources, color, None).text
}
