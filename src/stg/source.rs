//! Source files and positions: the files of a run, and byte offsets turned
//! into 1-based line and column numbers for messages.
//!
//! Each file is indexed once when it is added: where every line starts, and
//! (for text that is not all ASCII) how many characters precede every
//! 64-byte block, so that a line and column cost a binary search and at most
//! 64 bytes of counting whatever the lengths of the file and of its lines.

use crate::stg::syntax::{FileId, Span};

pub struct SourceFile {
    /// The name as given on the command line (or `<prelude>`).
    pub name: String,
    pub text: String,
    /// Byte offset of the start of each line (spans are `u32` offsets too).
    line_starts: Vec<u32>,
    /// For text with non-ASCII characters: entry `k` is the number of
    /// characters that start before byte `k * CHAR_BLOCK`. Empty for ASCII
    /// text, where characters are bytes.
    chars_before_block: Vec<u32>,
}

/// Bytes per entry of [`SourceFile::chars_before_block`].
const CHAR_BLOCK: usize = 64;

/// Whether `b` begins a character (is not a UTF-8 continuation byte).
fn starts_char(b: &u8) -> bool {
    b & 0xC0 != 0x80
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        // A line ends at LF, at CR, or at CRLF (one break), as in Haskell.
        let bytes = text.as_bytes();
        line_starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
                .map(|(i, _)| (i + 1) as u32),
        );
        let chars_before_block = if text.is_ascii() {
            Vec::new()
        } else {
            let mut count = 0u32;
            let mut index = Vec::with_capacity(text.len() / CHAR_BLOCK + 1);
            for block in text.as_bytes().chunks(CHAR_BLOCK) {
                index.push(count);
                count += block.iter().filter(|b| starts_char(b)).count() as u32;
            }
            // For the end of a text whose length is a multiple of the block.
            index.push(count);
            index
        };
        SourceFile {
            name: name.into(),
            text,
            line_starts,
            chars_before_block,
        }
    }

    /// The number of characters that start before byte `offset` (which
    /// must be at most the text's length).
    pub fn chars_before(&self, offset: usize) -> usize {
        if self.chars_before_block.is_empty() {
            return offset;
        }
        let block = offset / CHAR_BLOCK;
        let from = block * CHAR_BLOCK;
        let within = self.text.as_bytes()[from..offset]
            .iter()
            .filter(|b| starts_char(b))
            .count();
        self.chars_before_block[block] as usize + within
    }

    /// The 0-based index of the line holding byte `offset`.
    fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line] as usize;
        let col = self.chars_before(offset) - self.chars_before(start);
        (line + 1, col + 1)
    }

    /// The number of lines (a last line without a line break counts; an
    /// empty text has one empty line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte range of 1-based line `line`, without its line break.
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let start = self.line_starts[line - 1] as usize;
        let end = match self.line_starts.get(line) {
            Some(&next) => next as usize - 1,
            None => self.text.len(),
        };
        // Without the CR of a CRLF (a CR alone is the break itself).
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        start..end
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        &self.text[self.line_range(line)]
    }

    /// The number of characters in the byte range `range` (which must lie
    /// on character boundaries).
    pub fn char_len(&self, range: std::ops::Range<usize>) -> usize {
        self.chars_before(range.end) - self.chars_before(range.start)
    }
}

/// Every file of a run, indexed by [`FileId`].
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        (self.files.len() - 1) as FileId
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (i as FileId, f))
    }

    /// `file:line:col` of the start of a span, as used in runtime messages.
    pub fn location(&self, span: Span) -> String {
        let file = self.file(span.file);
        let (line, col) = file.line_col(span.start as usize);
        format!("{}:{}:{}", file.name, line, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line and column by counting characters from the start, the obvious
    /// way (CRLF and CR made LF first: each is one break).
    fn slow_line_col(text: &str, offset: usize) -> (usize, usize) {
        let mut before = text[..offset].to_string();
        if before.ends_with('\r') && text[offset..].starts_with('\n') {
            // Between the CR and LF of a CRLF: the CR is a character of the
            // line, not yet a break.
            before.pop();
            before.push('x');
        }
        let before = before.replace("\r\n", "\n").replace('\r', "\n");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    #[test]
    fn cr_lf_and_crlf_are_line_breaks() {
        let text = "ab\rcd\r\n\ré\nf\r\r\n";
        let file = SourceFile::new("t", text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(
                file.line_col(offset),
                slow_line_col(text, offset),
                "{offset}"
            );
        }
        let lines: Vec<&str> = (1..=file.line_count()).map(|l| file.line_text(l)).collect();
        assert_eq!(lines, vec!["ab", "cd", "", "é", "f", "", ""]);
    }

    #[test]
    fn line_col_agrees_with_counting() {
        // Non-ASCII text across block boundaries, long and short lines.
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(&"é".repeat(i % 70));
            text.push_str(&"x".repeat(i % 13));
            text.push_str(if i % 5 == 0 { "日本\n" } else { "\n" });
        }
        let file = SourceFile::new("t", text.clone());
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(
                file.line_col(offset),
                slow_line_col(&text, offset),
                "{offset}"
            );
        }
        let ascii = "ab\ncd\n\nefg";
        let file = SourceFile::new("a", ascii);
        for offset in 0..=ascii.len() {
            assert_eq!(file.line_col(offset), slow_line_col(ascii, offset));
        }
        assert_eq!(file.line_count(), 4);
        assert_eq!(file.line_text(2), "cd");
        assert_eq!(file.line_text(3), "");
        assert_eq!(file.line_text(4), "efg");
    }
}
