//! What happens to a feed, for logs, statistics and the consumer.
//!
//! Every event is logged (target `marketcurves.live`) where it happens, and
//! kept for the consumer in one bounded buffer that it drains with
//! [`LiveFeed::drain_events`](super::LiveFeed::drain_events). Keeping an
//! event takes a short lock and nothing else, so an absent or slow consumer
//! never stalls the socket reader; past [`EVENTS_KEPT`] unread events the
//! oldest are dropped (they were logged).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use domain::timestamp::Micros;

pub(crate) const TARGET: &str = "marketcurves.live";
/// Unread events kept for the consumer; when one more comes, the oldest goes.
pub const EVENTS_KEPT: usize = 1_000;

#[derive(Clone, Debug, PartialEq)]
pub enum FeedEvent {
    /// Authenticated; `attempt` counts the failed tries before (0 the first time).
    Connected { attempt: u32 },
    /// The connection was lost (close code, error, missed pong, restart).
    Disconnected { reason: String },
    /// Connected again after a loss, `attempts` tries and `downtime` later.
    Reconnected { downtime: Duration, attempts: u32 },
    /// A backfill delivered `count` values of a tenor, published from `from`
    /// to `to`, that the disconnection had kept from the feed.
    GapFilled {
        curve_id: String,
        tenor: String,
        count: usize,
        from: Micros,
        to: Micros,
    },
    /// The consumer is slow: `count` values were replaced by newer ones of
    /// the same tenor since the last such event.
    Conflated { count: u64 },
    /// A failure the feed carries on after (a refused resubscription, a failed
    /// backfill, an unexpected server error).
    Error { message: String },
}

/// Logs events and keeps the latest [`EVENTS_KEPT`] for the consumer. Clones
/// share the buffer: the session emits, the feed handle drains.
#[derive(Clone, Default)]
pub(crate) struct EventSink {
    kept: Arc<Mutex<VecDeque<FeedEvent>>>,
}

impl EventSink {
    pub(crate) fn emit(&self, event: FeedEvent) {
        log_event(&event);
        let mut kept = self.lock();
        if kept.len() == EVENTS_KEPT {
            kept.pop_front();
        }
        kept.push_back(event);
    }

    /// The events kept, oldest first, leaving none.
    pub(crate) fn drain(&self) -> Vec<FeedEvent> {
        self.lock().drain(..).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<FeedEvent>> {
        // Nothing that could panic runs under this lock; a poisoned one is intact.
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn log_event(event: &FeedEvent) {
    match event {
        FeedEvent::Connected { attempt } => {
            log::info!(target: TARGET, "connected (after {attempt} failed attempts)")
        }
        FeedEvent::Disconnected { reason } => log::warn!(target: TARGET, "disconnected: {reason}"),
        FeedEvent::Reconnected { downtime, attempts } => log::info!(
            target: TARGET,
            "reconnected after {:.3} s and {attempts} attempts",
            downtime.as_secs_f64()
        ),
        FeedEvent::GapFilled {
            curve_id,
            tenor,
            count,
            ..
        } => log::info!(target: TARGET, "backfilled {count} values of {curve_id} {tenor}"),
        FeedEvent::Conflated { count } => log::warn!(
            target: TARGET,
            "consumer is slow: {count} values replaced by newer ones of the same tenor"
        ),
        FeedEvent::Error { message } => log::warn!(target: TARGET, "{message}"),
    }
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
