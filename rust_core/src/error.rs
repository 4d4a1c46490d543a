//! The one error type of the core: a kind, a message, where it happened and a hint.

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

    /// 1-based line and column (in characters) of the span start within `source`.
    pub fn line_col(&self, source: &str) -> Option<(usize, usize)> {
        let start = self.span?.start.min(source.len());
        let before = source.get(..start)?;
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Some((line, before[line_start..].chars().count() + 1))
    }

    /// `line 1, col 34: message`, then the source line with a caret under the span, then the hint.
    pub fn render(&self, source: &str) -> String {
        let Some((line, col)) = self.line_col(source) else {
            return match &self.hint {
                Some(h) => format!("{}\n  hint: {h}", self.message),
                None => self.message.clone(),
            };
        };
        let span = self.span.unwrap_or_default();
        let text = source.lines().nth(line - 1).unwrap_or("");
        let width = source
            .get(span.start..span.end.min(source.len()))
            .map_or(1, |s| s.lines().next().unwrap_or("").chars().count().max(1));
        let mut out = format!(
            "line {line}, col {col}: {}\n  {text}\n  {}{}",
            self.message,
            " ".repeat(col - 1),
            "^".repeat(width)
        );
        if let Some(h) = &self.hint {
            out.push_str("\n  hint: ");
            out.push_str(h);
        }
        out
    }
}

impl fmt::Display for PqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PqlError {}

pub type PqlResult<T> = Result<T, PqlError>;

/// The closest candidate within a small edit distance, for "did you mean" hints.
pub fn did_you_mean<'a, I: IntoIterator<Item = &'a str>>(word: &str, candidates: I) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    let limit = (w.chars().count() / 3).max(1) + 1;
    candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &c.to_ascii_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
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
    }
}
