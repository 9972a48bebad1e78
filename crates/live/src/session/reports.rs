//! Reporting what the feed cannot help: frames that are not messages of the
//! interface (counted, a warning at most once a second) and values conflated
//! for a slow consumer (a `Conflated` event at most once a second).

use std::time::{Duration, Instant};

use super::online::Link;
use super::Session;
use crate::event::{FeedEvent, TARGET};
use crate::stats::Counters;

/// At most one `Conflated` event, and one undecodable-frame warning, per this.
const REPORT_EVERY: Duration = Duration::from_secs(1);

impl Session {
    /// Counts a frame that is not a message of the interface; warns at most
    /// once a second.
    pub(super) fn undecodable(&mut self, link: &mut Link, reason: &str) {
        let counters = &self.shared.counters;
        Counters::add(&counters.undecodable, 1);
        let due = link
            .undecodable_logged_at
            .is_none_or(|at| at.elapsed() >= REPORT_EVERY);
        if due {
            link.undecodable_logged_at = Some(Instant::now());
            log::warn!(
                target: TARGET,
                "skipped a frame that is not a message of the interface ({} so far): {reason}",
                counters.undecodable.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
    }

    /// The total conflated so far is `queue_total` (queue) plus what the
    /// book conflated; reports what is new, at most once a second.
    pub(super) fn note_conflation(&mut self, queue_total: u64) {
        let held = self.book.conflated();
        self.shared
            .held_conflated
            .store(held, std::sync::atomic::Ordering::Relaxed);
        self.conflation_total = queue_total + held;
        if self.conflation_total > self.conflation_reported
            && self
                .conflation_report_due()
                .is_some_and(|at| at <= Instant::now())
        {
            self.report_conflation();
        }
    }

    pub(super) fn conflation_report_due(&self) -> Option<Instant> {
        if self.conflation_total <= self.conflation_reported {
            return None;
        }
        Some(
            self.conflation_reported_at
                .map_or_else(Instant::now, |at| at + REPORT_EVERY),
        )
    }

    pub(super) fn report_conflation(&mut self) {
        let count = self.conflation_total - self.conflation_reported;
        if count == 0 {
            return;
        }
        self.conflation_reported = self.conflation_total;
        self.conflation_reported_at = Some(Instant::now());
        self.events.emit(FeedEvent::Conflated { count });
    }
}
