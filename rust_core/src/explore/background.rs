//! Explorations run in the background: work split into numbered items shared out to worker
//! threads, each item's result merged into one state that callers read as snapshots (while it
//! refines), with cancel. An item's result depends on its number only (its own random stream),
//! and merging is exact (integer sums), so a seed gives the same answer whatever the thread
//! count and the order items finish in.

use crate::error::PqlError;
use crate::run::runner::panic_message;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One kind of background exploration.
pub trait Work: Send + Sync + 'static {
    /// What an item computes, merged into the state.
    type Part: Send;
    /// Everything merged so far.
    type State: Clone + Send + 'static;
    /// A worker's reusable memory.
    type Scratch: Default;

    /// Items in all; the job ends when every item is merged (or `enough` says so).
    fn items(&self) -> u64;
    /// Computes item `item` (the same result for the same number, whichever thread runs it);
    /// `stop` turns true on cancel: return early then (the part is dropped).
    fn run(&self, item: u64, scratch: &mut Self::Scratch, stop: &AtomicBool) -> Result<Self::Part, PqlError>;
    fn merge(&self, state: &mut Self::State, part: Self::Part);
    /// Whether the state is good enough to stop before every item is merged.
    fn enough(&self, _state: &Self::State) -> bool {
        false
    }
}

/// A job's state as a reader sees it.
#[derive(Clone, Debug)]
pub struct Snapshot<S> {
    pub state: S,
    /// Items merged.
    pub merged: u64,
    pub items: u64,
    pub done: bool,
    pub cancelled: bool,
    pub error: Option<PqlError>,
    pub elapsed: Duration,
}

struct Shared<W: Work> {
    work: Arc<W>,
    snapshot: Mutex<Snapshot<W::State>>,
    changed: Condvar,
    next: AtomicU64,
    cancel: AtomicBool,
    /// Set when the job must end: cancelled, enough, an error.
    stop: AtomicBool,
    version: AtomicU64,
    live: AtomicU64,
    started: Instant,
}

impl<W: Work> Shared<W> {
    fn lock(&self) -> MutexGuard<'_, Snapshot<W::State>> {
        self.snapshot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn worker(&self) {
        let mut scratch = W::Scratch::default();
        let items = self.work.items();
        let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<(), PqlError> {
            loop {
                if self.stop.load(Ordering::Acquire) {
                    return Ok(());
                }
                let item = self.next.fetch_add(1, Ordering::AcqRel);
                if item >= items {
                    return Ok(());
                }
                let part = self.work.run(item, &mut scratch, &self.stop)?;
                if self.stop.load(Ordering::Acquire) {
                    return Ok(());
                }
                let mut snap = self.lock();
                self.work.merge(&mut snap.state, part);
                snap.merged += 1;
                if self.work.enough(&snap.state) {
                    self.stop.store(true, Ordering::Release);
                }
                drop(snap);
                self.version.fetch_add(1, Ordering::AcqRel);
                self.changed.notify_all();
            }
        }));
        let error = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(panic) => {
                Some(PqlError::runtime(format!("internal error while exploring: {}", panic_message(&*panic))))
            }
        };
        let mut snap = self.lock();
        if error.is_some() {
            self.stop.store(true, Ordering::Release);
            snap.error = snap.error.take().or(error);
        }
        if self.live.fetch_sub(1, Ordering::AcqRel) == 1 {
            snap.done = true;
            snap.cancelled = self.cancel.load(Ordering::Acquire) && snap.merged < snap.items && snap.error.is_none();
            snap.elapsed = self.started.elapsed();
        }
        drop(snap);
        self.version.fetch_add(1, Ordering::AcqRel);
        self.changed.notify_all();
    }
}

/// A running exploration: poll it for snapshots, cancel it from any thread. Dropping it
/// cancels it.
pub struct Job<W: Work> {
    shared: Arc<Shared<W>>,
    threads: Vec<std::thread::JoinHandle<()>>,
    seen: u64,
}

impl<W: Work> Job<W> {
    /// Starts `work` on `threads` workers (at least one) from the empty state `initial`.
    pub fn start(work: W, initial: W::State, threads: usize) -> Job<W> {
        let work = Arc::new(work);
        let items = work.items();
        let threads = threads.clamp(1, crate::run::runner::MAX_THREADS).min(items.max(1) as usize);
        let shared = Arc::new(Shared {
            work,
            snapshot: Mutex::new(Snapshot {
                state: initial,
                merged: 0,
                items,
                done: false,
                cancelled: false,
                error: None,
                elapsed: Duration::ZERO,
            }),
            changed: Condvar::new(),
            next: AtomicU64::new(0),
            cancel: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            version: AtomicU64::new(0),
            live: AtomicU64::new(threads as u64),
            started: Instant::now(),
        });
        let mut handles = Vec::with_capacity(threads);
        for i in 0..threads {
            let s = Arc::clone(&shared);
            let spawned = std::thread::Builder::new().name(format!("pql-explore-{i}")).spawn(move || s.worker());
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    // The others share the work out; with none at all the job ends with an error.
                    let mut snap = shared.lock();
                    if shared.live.fetch_sub(1, Ordering::AcqRel) == 1 {
                        snap.done = true;
                        if handles.is_empty() {
                            snap.error = Some(PqlError::runtime(format!("cannot start a worker thread: {e}")));
                        }
                    }
                }
            }
        }
        Job { shared, threads: handles, seen: u64::MAX }
    }

    /// A handle that cancels or adjusts the job from another thread while this one polls.
    pub fn remote(&self) -> Remote<W> {
        Remote { shared: Arc::clone(&self.shared) }
    }

    /// Waits up to `timeout` for news: a snapshot when something was merged since the last
    /// one (or the job ended), `None` otherwise.
    pub fn poll(&mut self, timeout: Duration) -> Option<Snapshot<W::State>> {
        let shared = &self.shared;
        let seen = self.seen;
        let fresh = |s: &Snapshot<W::State>| s.done || shared.version.load(Ordering::Acquire) != seen;
        let guard = shared.lock();
        let guard = if fresh(&guard) {
            guard
        } else {
            shared.changed.wait_timeout_while(guard, timeout, |s| !fresh(s)).unwrap_or_else(PoisonError::into_inner).0
        };
        if !fresh(&guard) {
            return None;
        }
        self.seen = shared.version.load(Ordering::Acquire);
        let mut snap = guard.clone();
        drop(guard);
        if snap.done {
            for t in self.threads.drain(..) {
                let _ = t.join();
            }
        } else {
            snap.elapsed = shared.started.elapsed();
        }
        Some(snap)
    }

    /// Blocks until the job ends; the final snapshot.
    pub fn wait(mut self) -> Snapshot<W::State> {
        loop {
            if let Some(s) = self.poll(Duration::from_millis(200)) {
                if s.done {
                    return s;
                }
            }
        }
    }

    pub fn cancel(&self) {
        self.remote().cancel();
    }
}

/// Cancels or adjusts a job without its poller.
pub struct Remote<W: Work> {
    shared: Arc<Shared<W>>,
}

impl<W: Work> Clone for Remote<W> {
    fn clone(&self) -> Self {
        Remote { shared: Arc::clone(&self.shared) }
    }
}

impl<W: Work> Remote<W> {
    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Release);
        self.shared.stop.store(true, Ordering::Release);
        self.shared.changed.notify_all();
    }

    /// The work the job does (to change what it reads while it runs).
    pub fn work(&self) -> &Arc<W> {
        &self.shared.work
    }

    /// Changes the merged state in place (what a changed input invalidates).
    pub fn update(&self, f: impl FnOnce(&mut W::State)) {
        f(&mut self.shared.lock().state);
        self.shared.version.fetch_add(1, Ordering::AcqRel);
    }
}

impl<W: Work> Drop for Job<W> {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums item numbers; items past `limit` are never needed; item 7,777 fails when `fails`.
    struct Sum {
        items: u64,
        limit: u64,
        fails: bool,
    }

    impl Work for Sum {
        type Part = u64;
        type State = u64;
        type Scratch = ();
        fn items(&self) -> u64 {
            self.items
        }
        fn run(&self, item: u64, (): &mut (), _: &AtomicBool) -> Result<u64, PqlError> {
            if self.fails && item == 7_777 {
                return Err(PqlError::runtime("seven"));
            }
            Ok(item)
        }
        fn merge(&self, state: &mut u64, part: u64) {
            *state += part;
        }
        fn enough(&self, state: &u64) -> bool {
            *state >= self.limit
        }
    }

    #[test]
    fn every_item_is_merged_once_whatever_the_threads() {
        for threads in [1, 2, 5] {
            let s = Job::start(Sum { items: 1000, limit: u64::MAX, fails: true }, 0, threads).wait();
            assert!(s.done && !s.cancelled && s.error.is_none());
            assert_eq!((s.state, s.merged), (999 * 1000 / 2, 1000));
        }
    }

    #[test]
    fn enough_stops_errors_surface_and_cancel_ends() {
        let s = Job::start(Sum { items: 1_000_000, limit: 100, fails: true }, 0, 2).wait();
        assert!(s.done && s.state >= 100 && s.merged < 1_000_000);
        let s = Job::start(Sum { items: 10_000, limit: u64::MAX, fails: true }, 0, 2).wait();
        assert_eq!(s.error.map(|e| e.message), Some("seven".to_string()));
        // No failing item here: however far the workers get before the cancel lands, it ends
        // the job as cancelled (an error first would be a different, correct, ending).
        let job = Job::start(Sum { items: u64::MAX, limit: u64::MAX, fails: false }, 0, 2);
        job.cancel();
        let s = job.wait();
        assert!(s.done && s.cancelled);
    }
}
