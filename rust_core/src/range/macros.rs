//! Named ranges: user macros such as `$open` that stand for a range text (`.define $open
//! 'QQ+, AKs'` in the REPLs). They are passed in by the caller (Python keeps them in the user's
//! data directory), never read from a file here.
//!
//! `$name` is read in the game and syntax of the range that uses it, wherever a leaf may stand:
//! alone (then its `@` weights count), or combined (`$open, 22`, `$open:suited`, `!$open`: only
//! which hands it holds counts there). A named range may use others; a circle is an error.

use crate::error::{PqlError, Span};
use std::collections::HashMap;

/// The built-in suffix macros (docs/language/ranges.md, the generic syntax), lower case; the slot macros (`$B`) have one
/// letter and the rundowns (`$0G`) start with a digit, which names may not.
const SUFFIX_MACROS: [&str; 6] = ["ds", "ss", "np", "op", "tp", "nt"];
/// Named ranges nest at most this deep (a longer chain is surely a mistake).
const MAX_DEPTH: usize = 16;

/// User macros by lower-case name (without the `$`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Macros {
    map: HashMap<String, String>,
}

impl Macros {
    /// No user macros.
    pub fn none() -> Macros {
        Macros::default()
    }

    /// Macros from `(name, text)` pairs (names with or without the `$`); the first bad name is
    /// an error naming it.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Macros, String> {
        let mut map = HashMap::new();
        for (name, text) in pairs {
            let bare = name.strip_prefix('$').unwrap_or(name);
            check_name(bare)?;
            map.insert(bare.to_ascii_lowercase(), text.to_string());
        }
        Ok(Macros { map })
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The text of `$name` when `leaf` is exactly a defined `$name`.
    pub fn lookup(&self, leaf: &str) -> Option<(&str, &str)> {
        let name = leaf.trim().strip_prefix('$')?;
        self.map.get_key_value(&name.to_ascii_lowercase()).map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// Why `name` (without the `$`) cannot name a range, or `Ok`: a letter, then letters, digits or
/// `_`, at least two characters, and not like a built-in macro.
pub fn check_name(name: &str) -> Result<(), String> {
    let lower = name.to_ascii_lowercase();
    let mut chars = name.chars();
    let well_formed = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() >= 2;
    if !well_formed {
        return Err(format!(
            "'${name}' is not a range name: use a letter, then letters, digits or '_' (two characters at least)"
        ));
    }
    if SUFFIX_MACROS.contains(&lower.as_str()) {
        return Err(format!("'${name}' is a built-in macro"));
    }
    Ok(())
}

/// The names being expanded, innermost last, to stop circles and runaway nesting.
#[derive(Default)]
pub(crate) struct Expansion {
    stack: Vec<String>,
}

impl Expansion {
    /// Enters `$name` (used at `span` of the outer text); an error on a circle or too deep.
    pub fn enter(&mut self, name: &str, span: Span) -> Result<(), PqlError> {
        if self.stack.iter().any(|n| n == name) {
            let mut chain: Vec<String> = self.stack.iter().map(|n| format!("${n}")).collect();
            chain.push(format!("${name}"));
            return Err(PqlError::range(format!("the named range ${name} uses itself: {}", chain.join(" -> ")), span));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(PqlError::range(format!("named ranges nest more than {MAX_DEPTH} deep"), span));
        }
        self.stack.push(name.to_string());
        Ok(())
    }

    pub fn leave(&mut self) {
        self.stack.pop();
    }
}

/// An error inside the text of `$name`, moved onto the `$name` that used it (the macro's own
/// text is not in the query).
pub(crate) fn placed(e: PqlError, name: &str, span: Span) -> PqlError {
    if e.message.starts_with("the named range") || e.message.starts_with("named ranges nest") {
        return PqlError { span: Some(span), ..e };
    }
    PqlError { message: format!("in ${name}: {}", e.message), span: Some(span), ..e }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert!(check_name("open").is_ok());
        assert!(check_name("Open_2").is_ok());
        assert!(check_name("o").is_err());
        assert!(check_name("2x").is_err());
        assert!(check_name("a-b").is_err());
        assert!(check_name("ds").unwrap_err().contains("built-in"));
        assert!(check_name("NP").is_err());
        assert!(check_name("open").is_ok());
        let m = Macros::from_pairs([("$Open", "QQ+")]).unwrap();
        assert_eq!(m.lookup("$open"), Some(("open", "QQ+")));
        assert_eq!(m.lookup(" $OPEN "), Some(("open", "QQ+")));
        assert_eq!(m.lookup("open"), None);
        assert!(Macros::from_pairs([("$x", "AA")]).is_err());
    }
}
