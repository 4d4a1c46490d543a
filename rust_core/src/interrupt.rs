//! Stopping work that is not a run: checking and compiling a text (reading its ranges,
//! reweighting a simulate statement's players by a long history) stops when asked (Ctrl-C, a
//! new check replacing this one) or past the time limit, as a run does, instead of holding the
//! caller until it ends. Uses `error`.

use crate::error::{ErrorKind, PqlError, Span};
use std::time::{Duration, Instant};

/// Why checking stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stopped {
    /// The caller asked (its `asked` answered true).
    Cancelled,
    /// The time limit passed; the limit.
    TimeLimit(Duration),
}

impl Stopped {
    /// The error of a check stopped in the statement at `span`: `Cancelled`, or past the time
    /// limit an error at the statement.
    pub fn error(self, span: Span) -> PqlError {
        match self {
            Stopped::Cancelled => PqlError::new(ErrorKind::Cancelled, "cancelled", None),
            Stopped::TimeLimit(limit) => PqlError::new(
                ErrorKind::Runtime,
                format!("checking this statement took longer than the time limit ({} s)", limit.as_secs_f64()),
                Some(span),
            )
            .with_hint("raise the time limit (--time-limit, .time_limit), or shorten the statement"),
        }
    }
}

/// What stops a check: a question put to the caller and a deadline, each optional.
pub struct Interrupt<'a> {
    asked: Option<&'a (dyn Fn() -> bool + Sync)>,
    deadline: Option<(Instant, Duration)>,
}

impl<'a> Interrupt<'a> {
    /// Never stops.
    pub const NONE: Interrupt<'static> = Interrupt { asked: None, deadline: None };

    /// Stops once `asked` answers true (it is called at every check point, so it should be
    /// cheap) or `limit` has passed since now.
    pub fn new(asked: Option<&'a (dyn Fn() -> bool + Sync)>, limit: Option<Duration>) -> Interrupt<'a> {
        Interrupt { asked, deadline: limit.map(|l| (Instant::now() + l, l)) }
    }

    /// Whether to stop now, and why.
    pub fn check(&self) -> Result<(), Stopped> {
        if self.asked.is_some_and(|asked| asked()) {
            return Err(Stopped::Cancelled);
        }
        match self.deadline {
            Some((at, limit)) if Instant::now() >= at => Err(Stopped::TimeLimit(limit)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn stops_when_asked_or_past_the_limit() {
        assert_eq!(Interrupt::NONE.check(), Ok(()));
        let flag = AtomicBool::new(false);
        let asked = || flag.load(Ordering::Relaxed);
        let interrupt = Interrupt::new(Some(&asked), None);
        assert_eq!(interrupt.check(), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(interrupt.check(), Err(Stopped::Cancelled));
        let past = Interrupt::new(None, Some(Duration::ZERO));
        assert_eq!(past.check(), Err(Stopped::TimeLimit(Duration::ZERO)));
    }
}
