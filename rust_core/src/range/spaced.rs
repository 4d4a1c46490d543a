//! Whitespace between the cards of one hand (`'Qs Ts Jd 2d'`, `'Ac Kd'`), in every syntax and
//! game: the expression lexer keeps such words together as one leaf, and the leaf is read here
//! with its whitespace removed, errors placed back on the text as written. A comma still
//! separates hands.

use crate::error::{PqlError, Span};

/// Whether the leaf `leaf` may be joined to a neighbouring leaf by whitespace: each of its words
/// is cards, not an operator word, a hold'em class word (`suited connected` stays an error that
/// names the words), a percentage or part of a worded span (`AA to TT`), whose readers see the
/// words apart.
pub(crate) fn joins(leaf: &str) -> bool {
    leaf.split_whitespace().all(word_joins)
}

fn word_joins(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    !(word.contains('%')
        || matches!(lower.as_str(), "and" | "or" | "not" | "to" | "through" | "pairs" | "connectors")
        || super::classes::NAMES.contains(&lower.as_str())
        || lower.starts_with("group"))
}

/// Whether a leaf is cards written with whitespace between them (joined by the lexer), rather
/// than a worded span whose reader splits the words itself.
pub(crate) fn is_spaced(text: &str) -> bool {
    text.contains(char::is_whitespace) && joins(text)
}

/// Reads the leaf `text` found at `offset` of the range text with `read`, which takes a leaf and
/// its offset. A spaced leaf is read without its whitespace, and the span of an error is moved
/// back onto the text as written.
pub(crate) fn read_leaf<T>(
    text: &str,
    offset: usize,
    read: impl FnOnce(&str, usize) -> Result<T, PqlError>,
) -> Result<T, PqlError> {
    if !is_spaced(text) {
        return read(text, offset);
    }
    // Each byte of the compact text with its offset in `text`.
    let mut compact = String::with_capacity(text.len());
    let mut origin: Vec<usize> = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices().filter(|(_, c)| !c.is_whitespace()) {
        compact.push(c);
        origin.extend(i..i + c.len_utf8());
    }
    read(&compact, 0).map_err(|e| {
        let Some(span) = e.span else { return e };
        let at = |k: usize| origin.get(k).copied().unwrap_or(text.len());
        let start = at(span.start);
        let end = if span.end > span.start { at(span.end - 1) + 1 } else { start };
        e.with_span(Span::new(offset + start, offset + end))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaced_leaves_are_read_compact_and_errors_point_at_the_text() {
        let got = read_leaf("Qs Ts  Jd", 4, |t, off| Ok::<_, PqlError>((t.to_string(), off))).unwrap();
        assert_eq!(got, ("QsTsJd".to_string(), 0));
        // An error on the 'J' of the compact text (offset 4) lands on the 'J' as written.
        let e = read_leaf("Qs Ts  Jd", 10, |_, _| Err::<(), _>(PqlError::range("bad", Span::new(4, 6)))).unwrap_err();
        assert_eq!(e.span, Some(Span::new(10 + 7, 10 + 9)));
        // A leaf without whitespace, and a worded span, are passed through untouched.
        let got = read_leaf("AKs", 3, |t, off| Ok::<_, PqlError>((t.to_string(), off))).unwrap();
        assert_eq!(got, ("AKs".to_string(), 3));
        assert!(!is_spaced("AA to TT") && !is_spaced("group2 through group5"));
        assert!(is_spaced("Ac Kd") && !joins("suited") && !joins("15%"));
    }
}
