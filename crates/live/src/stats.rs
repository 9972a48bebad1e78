//! What a feed has done so far: counters the session bumps without locks and
//! the snapshot of them a consumer reads.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

use domain::timestamp::Micros;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedStats {
    /// Frames received, of every kind.
    pub messages: u64,
    /// Ticks handed to the consumer.
    pub ticks_delivered: u64,
    /// Connections made after the first one.
    pub reconnects: u64,
    /// Gaps (a tenor after a reconnect) for which values were backfilled.
    pub gaps_filled: u64,
    /// Values delivered from backfills.
    pub backfilled: u64,
    /// Values replaced by newer ones of the same tenor for a slow consumer.
    pub conflated: u64,
    /// Values not delivered because one as recent was already delivered.
    pub duplicates_dropped: u64,
    /// Wall-clock UTC time of the last frame received.
    pub last_message: Option<Micros>,
    pub subscriptions: usize,
    pub connected: bool,
    /// Ticks waiting for the consumer.
    pub queued: usize,
    /// Frames that were not messages of the interface (skipped).
    pub undecodable: u64,
    /// Backfills that failed after the REST client's retries (their gap stays
    /// unfilled; the live values were delivered).
    pub backfill_failures: u64,
    /// REST requests sent by backfills.
    pub backfill_requests: u64,
    /// Gaps closed with no request: after a reconnect, the tenor's snapshot
    /// was the last value delivered, so nothing was published meanwhile.
    pub gaps_skipped: u64,
}

/// The counters the session updates as it goes.
#[derive(Debug, Default)]
pub struct Counters {
    pub messages: AtomicU64,
    pub ticks_delivered: AtomicU64,
    pub reconnects: AtomicU64,
    pub gaps_filled: AtomicU64,
    pub backfilled: AtomicU64,
    pub duplicates_dropped: AtomicU64,
    pub undecodable: AtomicU64,
    pub backfill_failures: AtomicU64,
    pub backfill_requests: AtomicU64,
    pub gaps_skipped: AtomicU64,
    /// Micros of the last frame; `i64::MIN` before the first one.
    last_message: AtomicI64,
    pub connected: AtomicBool,
}

impl Counters {
    pub fn new() -> Counters {
        Counters {
            last_message: AtomicI64::new(i64::MIN),
            ..Counters::default()
        }
    }

    pub fn add(counter: &AtomicU64, n: u64) {
        if n > 0 {
            counter.fetch_add(n, Relaxed);
        }
    }

    pub fn set_last_message(&self, at: Micros) {
        self.last_message.store(at, Relaxed);
    }

    pub fn last_message(&self) -> Option<Micros> {
        let at = self.last_message.load(Relaxed);
        (at != i64::MIN).then_some(at)
    }

    /// Everything but what the queue and the subscription set know.
    pub fn snapshot(&self) -> FeedStats {
        FeedStats {
            messages: self.messages.load(Relaxed),
            ticks_delivered: self.ticks_delivered.load(Relaxed),
            reconnects: self.reconnects.load(Relaxed),
            gaps_filled: self.gaps_filled.load(Relaxed),
            backfilled: self.backfilled.load(Relaxed),
            duplicates_dropped: self.duplicates_dropped.load(Relaxed),
            undecodable: self.undecodable.load(Relaxed),
            backfill_failures: self.backfill_failures.load(Relaxed),
            backfill_requests: self.backfill_requests.load(Relaxed),
            gaps_skipped: self.gaps_skipped.load(Relaxed),
            last_message: self.last_message(),
            connected: self.connected.load(Relaxed),
            ..FeedStats::default()
        }
    }
}
