//! Reading a leaf of range text one character at a time, with error spans shifted into the
//! whole range: what the classic, generic and stud readers share.

use crate::error::{PqlError, Span};

pub(super) trait Cursor {
    /// The leaf's text, the position reached in it, and the leaf's offset in the range text.
    fn cursor(&self) -> (&str, usize, usize);

    /// The character at the position, if any is left.
    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    /// The character `n` after the one at the position.
    fn peek_at(&self, n: usize) -> Option<char> {
        let (text, pos, _) = self.cursor();
        text[pos..].chars().nth(n)
    }

    /// The character at the position (empty at the end), in range-text coordinates.
    fn span_here(&self) -> Span {
        let (_, pos, offset) = self.cursor();
        let len = self.peek().map_or(0, char::len_utf8);
        Span::new(offset + pos, offset + pos + len)
    }

    /// "expected `expected`, found ..." at the position.
    fn err_here(&self, expected: &str) -> PqlError {
        match self.peek() {
            Some(c) => PqlError::range(format!("expected {expected}, found '{c}'"), self.span_here()),
            None => PqlError::range(format!("expected {expected}, found the end of the hand"), self.span_here()),
        }
    }
}
