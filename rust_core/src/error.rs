//! The one error type of the core: a kind, a message, where it happened and a hint.
//! Uses nothing else of the crate; every room may use it.

use std::fmt;

/// Byte offsets `[start, end)` into the query text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    /// A span relative to an inner text (a string literal's contents) moved to the outer text.
    pub fn shifted(self, by: usize) -> Span {
        Span::new(self.start + by, self.end + by)
    }
}

/// Maps one-to-one onto the Python exception classes (`PqlSyntaxError`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Syntax,
    Type,
    Range,
    Runtime,
    Cancelled,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PqlError {
    pub kind: ErrorKind,
    pub message: String,
    /// Where in the source text; `None` for errors that belong to no position (a cancelled run).
    pub span: Option<Span>,
    pub hint: Option<String>,
}

impl PqlError {
    pub fn new(kind: ErrorKind, message: impl Into<String>, span: Option<Span>) -> PqlError {
        PqlError { kind, message: message.into(), span, hint: None }
    }
    pub fn syntax(message: impl Into<String>, span: Span) -> PqlError {
        PqlError::new(ErrorKind::Syntax, message, Some(span))
    }
    pub fn type_error(message: impl Into<String>, span: Span) -> PqlError {
        PqlError::new(ErrorKind::Type, message, Some(span))
    }
    pub fn range(message: impl Into<String>, span: Span) -> PqlError {
        PqlError::new(ErrorKind::Range, message, Some(span))
    }
    pub fn runtime(message: impl Into<String>) -> PqlError {
        PqlError::new(ErrorKind::Runtime, message, None)
    }
    pub fn cancelled() -> PqlError {
        PqlError::new(ErrorKind::Cancelled, "cancelled", None)
    }
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> PqlError {
        self.hint = Some(hint.into());
        self
    }
    #[must_use]
    pub fn with_span(mut self, span: Span) -> PqlError {
        self.span = Some(span);
        self
    }

    /// 1-based line and column (in characters) of the span start within `source`. Scans the
    /// text: for many errors of one text build a [`SourceMap`] once.
    pub fn line_col(&self, source: &str) -> Option<(usize, usize)> {
        SourceMap::new(source).line_col_of(self)
    }

    /// `line 1, col 34: message`, then the source line with a caret under the span, then the
    /// hint. Scans the text: for many errors of one text use [`SourceMap::render`].
    pub fn render(&self, source: &str) -> String {
        SourceMap::new(source).render(self)
    }
}

pub use crate::limits::MAX_ERRORS;

/// Keeps the first [`MAX_ERRORS`] of `errors` and, when there were more, adds one entry without
/// a position saying how many were left out, so a text of garbage gives a short report.
pub fn cap_errors(mut errors: Vec<PqlError>) -> Vec<PqlError> {
    if errors.len() > MAX_ERRORS {
        let omitted = errors.len() - MAX_ERRORS;
        let kind = errors[MAX_ERRORS].kind;
        errors.truncate(MAX_ERRORS);
        let s = if omitted == 1 { "" } else { "s" };
        errors.push(PqlError::new(kind, format!("… and {omitted} more error{s}"), None));
    }
    errors
}

/// Source text quoted in a message is cut to this many characters.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as quoted in a message: at most [`EXCERPT_CHARS`] characters, with `…` when cut, so a
/// megabyte-long word cannot make a megabyte-long message.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}

/// Line starts and character counts of a text, computed once, so positions of any number of
/// errors cost a binary search each instead of a scan from the start. The text may be a part of
/// a larger one (a statement of a script) that starts at `origin` (1-based line and column):
/// positions are then reported as in the larger text.
pub struct SourceMap<'a> {
    source: &'a str,
    origin: (usize, usize),
    /// Byte offset of the start of every line.
    line_starts: Vec<usize>,
    /// `chars_before[i]`: characters in the first `i * CHUNK` bytes.
    chars_before: Vec<usize>,
}

/// Bytes between two character-count checkpoints.
const CHUNK: usize = 256;
/// A source line longer than this (in characters) is shown as a window around the caret.
const WINDOW_CHARS: usize = 100;

impl<'a> SourceMap<'a> {
    pub fn new(source: &'a str) -> SourceMap<'a> {
        SourceMap::with_origin(source, (1, 1))
    }

    /// The map of `source` when its first character is at `origin` of a larger text.
    pub fn with_origin(source: &'a str, origin: (usize, usize)) -> SourceMap<'a> {
        let bytes = source.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n').map(|(i, _)| i + 1));
        let mut chars_before = Vec::with_capacity(bytes.len() / CHUNK + 1);
        let mut count = 0;
        for chunk in bytes.chunks(CHUNK) {
            chars_before.push(count);
            count += chunk.iter().filter(|&&b| !is_continuation(b)).count();
        }
        chars_before.push(count);
        SourceMap { source, origin: (origin.0.max(1), origin.1.max(1)), line_starts, chars_before }
    }

    /// Characters in `source[..offset]` (`offset` clamped to the text).
    fn chars_to(&self, offset: usize) -> usize {
        let offset = offset.min(self.source.len());
        let chunk = offset / CHUNK;
        let tail = &self.source.as_bytes()[chunk * CHUNK..offset];
        self.chars_before[chunk] + tail.iter().filter(|&&b| !is_continuation(b)).count()
    }

    /// 1-based line and column (in characters) of byte `offset`, which is clamped to the text
    /// and moved back to a character boundary; counted from the origin.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let (line, col) = self.local_line_col(offset);
        let (origin_line, origin_col) = self.origin;
        (line + origin_line - 1, if line == 1 { col + origin_col - 1 } else { col })
    }

    /// `offset` clamped to the text and moved back to a character boundary.
    fn boundary(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.source.len());
        while !self.source.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// Line and column within this text alone.
    fn local_line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.boundary(offset);
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, self.chars_to(offset) - self.chars_to(start) + 1)
    }

    /// Line and column of the start of `error`'s span, if it has one.
    pub fn line_col_of(&self, error: &PqlError) -> Option<(usize, usize)> {
        error.span.map(|s| self.line_col(s.start))
    }

    /// The text of 1-based line `line`, without its line break.
    fn line_text(&self, line: usize) -> &'a str {
        let start = self.line_starts[line - 1];
        let end = self.line_starts.get(line).map_or(self.source.len(), |&next| next - 1);
        let text = &self.source[start..end];
        text.strip_suffix('\r').unwrap_or(text)
    }

    /// `line 1, col 34: message`, then the source line with a caret under the span, then the
    /// hint. A long line is cut to a window around the caret; tabs are kept in the caret line so
    /// the caret stays under its character whatever the tab width.
    pub fn render(&self, error: &PqlError) -> String {
        let Some(span) = error.span else {
            return match &error.hint {
                Some(h) => format!("{}\n  hint: {h}", error.message),
                None => error.message.clone(),
            };
        };
        let (line, col) = self.local_line_col(span.start);
        let line_text = self.line_text(line);
        let line_start = self.line_starts[line - 1];
        // Counted, not collected: a line may be megabytes long, and only a window is shown.
        let len = self.chars_to(line_start + line_text.len()) - self.chars_to(line_start);
        // The caret covers the span's characters on its first line, at least one.
        let at = col - 1;
        let span_chars = self.chars_to(span.end.max(span.start)) - self.chars_to(span.start);
        let width = span_chars.min(len.saturating_sub(at)).max(1);
        // The window shown: the whole line when short, else WINDOW_CHARS around the caret.
        let (from, to) = if len <= WINDOW_CHARS {
            (0, len)
        } else {
            let from = at.saturating_sub(WINDOW_CHARS / 3).min(len.saturating_sub(WINDOW_CHARS));
            (from, (from + WINDOW_CHARS).min(len))
        };
        let at_byte = self.boundary(span.start).saturating_sub(line_start).min(line_text.len());
        let window = &line_text[char_step(line_text, at_byte, at, from)..char_step(line_text, at_byte, at, to)];
        let shown = |c: char| if c.is_control() && c != '\t' { ' ' } else { c };
        let mut source_line: String = window.chars().map(shown).collect();
        let mut caret_line: String =
            window.chars().take(at.min(to).saturating_sub(from)).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
        if from > 0 {
            source_line.insert(0, '…');
            caret_line.insert(0, ' ');
        }
        if to < len {
            source_line.push('…');
        }
        caret_line.push_str(&"^".repeat(width.min(to.saturating_sub(at)).max(1)));
        let (shown_line, shown_col) = self.line_col(span.start);
        let mut out = format!("line {shown_line}, col {shown_col}: {}\n  {source_line}\n  {caret_line}", error.message);
        if let Some(h) = &error.hint {
            out.push_str("\n  hint: ");
            out.push_str(h);
        }
        out
    }
}

/// The byte offset in `line` of character `target`, stepping from character `at`, which starts
/// at byte `at_byte`: a few steps, where a walk from the line's start could cross megabytes.
fn char_step(line: &str, at_byte: usize, at: usize, target: usize) -> usize {
    if target >= at {
        line[at_byte..].char_indices().nth(target - at).map_or(line.len(), |(i, _)| at_byte + i)
    } else {
        line[..at_byte].char_indices().rev().nth(at - target - 1).map_or(0, |(i, _)| i)
    }
}

/// A UTF-8 continuation byte (not the first byte of a character).
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

impl fmt::Display for PqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PqlError {}

pub type PqlResult<T> = Result<T, PqlError>;

/// The closest candidate within a small edit distance, for "did you mean" hints. A swap of
/// two neighbouring letters counts as one edit (`flase` is `false`, not `flush`); an empty
/// word, or one that shares no letter in place with the candidate, suggests nothing.
pub fn did_you_mean<'a, I: IntoIterator<Item = &'a str>>(word: &str, candidates: I) -> Option<&'a str> {
    let w: Vec<char> = word.to_ascii_lowercase().chars().collect();
    if w.is_empty() {
        return None;
    }
    // About one edit in three letters; a match must keep at least one character.
    let limit = (w.len() / 3).max(1) + 1;
    candidates
        .into_iter()
        .filter_map(|c| {
            let c_chars: Vec<char> = c.to_ascii_lowercase().chars().collect();
            // Cheap first: a length difference alone may rule the candidate out.
            if c_chars.len().abs_diff(w.len()) > limit {
                return None;
            }
            let d = edit_distance(&w, &c_chars);
            (d <= limit && d < w.len().max(c_chars.len())).then_some((d, c))
        })
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each cost one.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let mut d = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && ca == b[j - 1] && a[i - 1] == cb {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_column_and_caret() {
        let src = "select avg(riverEquty(hero))\nfrom hero='AA'";
        let e = PqlError::type_error("unknown function 'riverEquty'", Span::new(11, 21))
            .with_hint("did you mean 'riverEquity'?");
        assert_eq!(e.line_col(src), Some((1, 12)));
        let r = e.render(src);
        assert!(r.starts_with("line 1, col 12: unknown function"));
        assert!(r.contains("\n             ^^^^^^^^^^"), "{r}");
    }

    #[test]
    fn suggests_close_words_only() {
        assert_eq!(did_you_mean("riverEquty", ["riverEquity", "winsHi"]), Some("riverEquity"));
        assert_eq!(did_you_mean("xyzzy", ["riverEquity", "winsHi"]), None);
        // A swap of neighbours is one edit.
        assert_eq!(did_you_mean("flase", ["flush", "false"]), Some("false"));
        assert_eq!(did_you_mean("adn", ["and", "or"]), Some("and"));
        // Nothing is suggested for nothing, nor by replacing every letter.
        assert_eq!(did_you_mean("", ["o8", "holdem"]), None);
        assert_eq!(did_you_mean("x", ["o8", "y"]), None);
        assert_eq!(did_you_mean("o", ["o8"]), Some("o8"));
    }

    /// Line and column by a scan from the start, as the map must give.
    fn naive_line_col(source: &str, offset: usize) -> (usize, usize) {
        let before = &source[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
    }

    #[test]
    fn the_source_map_agrees_with_a_scan() {
        let mut src = String::new();
        for i in 0..400 {
            src.push_str(["a", "é", "\n", "€", "\t", "😀", "bc\r\n"][i % 7]);
        }
        let map = SourceMap::new(&src);
        for offset in (0..=src.len()).filter(|&o| src.is_char_boundary(o)) {
            assert_eq!(map.line_col(offset), naive_line_col(&src, offset), "at {offset}");
        }
        // Past the end and inside a character: clamped, moved back.
        assert_eq!(map.line_col(src.len() + 10), naive_line_col(&src, src.len()));
        let inside = src.find('é').unwrap() + 1;
        assert_eq!(map.line_col(inside), naive_line_col(&src, inside - 1));
    }

    #[test]
    fn the_caret_stays_under_its_character_after_tabs() {
        let src = "select\tavg(\tx)";
        let e = PqlError::syntax("here", Span::new(12, 13));
        let r = e.render(src);
        assert_eq!(r, "line 1, col 13: here\n  select\tavg(\tx)\n        \t    \t^");
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_caret() {
        let src = format!("{}@{}", "a".repeat(5000), "b".repeat(5000));
        let e = PqlError::syntax("unexpected character '@'", Span::new(5000, 5001));
        let r = e.render(&src);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "line 1, col 5001: unexpected character '@'");
        assert!(lines[1].chars().count() < 110, "{}", lines[1]);
        assert!(lines[1].starts_with("  …a") && lines[1].ends_with("b…"), "{}", lines[1]);
        // The caret is under the '@'.
        let caret = lines[2].chars().count() - 1;
        assert_eq!(lines[1].chars().nth(caret), Some('@'));
        // A span running over many lines underlines only what the window shows.
        let wide = PqlError::syntax("wide", Span::new(0, src.len()));
        assert!(wide.render(&src).len() < 400);
    }

    #[test]
    fn a_part_of_a_larger_text_reports_the_larger_text_s_positions() {
        // `select avg(x @)` starting at line 3, col 5 of a script.
        let part = "select avg(x @)\n  from y='A'";
        let map = SourceMap::with_origin(part, (3, 5));
        assert_eq!(map.line_col(13), (3, 18));
        assert_eq!(map.line_col(part.len() - 1), (4, 12));
        let r = map.render(&PqlError::syntax("bad", Span::new(13, 14)));
        assert_eq!(r, "line 3, col 18: bad\n  select avg(x @)\n               ^");
    }

    #[test]
    fn errors_are_capped_with_a_count_of_the_rest() {
        let many: Vec<PqlError> = (0..120).map(|i| PqlError::syntax("bad", Span::new(i, i + 1))).collect();
        let capped = cap_errors(many);
        assert_eq!(capped.len(), MAX_ERRORS + 1);
        assert_eq!(capped[MAX_ERRORS].message, "… and 70 more errors");
        assert_eq!(capped[MAX_ERRORS].span, None);
        assert_eq!(cap_errors(vec![PqlError::runtime("x")]).len(), 1);
    }

    #[test]
    fn excerpts_cut_long_text() {
        assert_eq!(excerpt("hero"), "hero");
        let long = "é".repeat(100);
        assert_eq!(excerpt(&long).chars().count(), EXCERPT_CHARS + 1);
        assert!(excerpt(&long).ends_with('…'));
    }
}
