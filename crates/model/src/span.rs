//! Byte-offset spans into a ruleset's source text.
//!
//! The parser turns its positions into these; everything after it (the
//! checker, the model, the engines) speaks in spans, never in a parser's
//! types.

use serde::Serialize;

/// A half-open byte range `start..end` in one source file. `file` numbers
/// the files of a ruleset and the files it extends: 0 is the file given on
/// the command line, then each base in `extends` order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub file: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end, file: 0 }
    }

    pub fn in_file(file: usize, start: usize, end: usize) -> Self {
        Span { start, end, file }
    }

    /// The smallest span covering both (in this span's file).
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end), file: self.file }
    }

    /// Whether `other` lies within this span, in the same file.
    pub fn contains(self, other: Span) -> bool {
        self.file == other.file && self.start <= other.start && other.end <= self.end
    }

    /// An empty span at this span's end.
    pub fn end_point(self) -> Span {
        Span { start: self.end, end: self.end, file: self.file }
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// Where each line of a text starts, so that many offsets can be turned
/// into lines and columns without scanning the text from its start each
/// time (thousands of diagnostics in a large file).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 1-based line and column (in characters) of `offset` in `text`, the
    /// text this index was made from; the same as [`line_col`].
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|s| *s <= offset).max(1);
        let start = self.starts[line - 1].min(offset);
        (line, text[start..offset].chars().count() + 1)
    }
}

/// 1-based line and column of a byte offset, counting columns in characters.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..floor_char_boundary(source, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
