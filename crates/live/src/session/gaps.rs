//! Backfilling the gaps a disconnection leaves: after a reconnect, each
//! tenor delivered before waits for its snapshot (see the book). One that
//! shows a newer value holds its live values back until the values
//! published since its last delivered time are fetched, then both are
//! merged and delivered in order, each once. One whose snapshot is its last
//! delivered value needs nothing; one that sends no snapshot within
//! [`SNAPSHOT_GRACE`] of its subscription's confirmation is backfilled.
//!
//! Backfills run as tasks, each of whose requests takes one of the REST
//! client's `max_concurrency` slots: a reconnect of thousands of tenors
//! never has more requests in flight than that, and shares them fairly with
//! the user's own calls.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use tokio::task::JoinError;

use super::Session;
use crate::book::GapRequest;
use crate::event::FeedEvent;
use crate::names::Row;
use crate::sources::{GapSpan, PageHints};
use crate::stats::Counters;
use domain::live::Subscription;
use domain::timestamp::Micros;
use places::ClientError;

/// A backfill's answer: the values found, or why there are none.
pub(super) type GapOutcome = (GapRequest, Result<Vec<(Micros, f64)>, ClientError>);

/// A value published this long before the last frame of a lost connection
/// would have arrived on it; earlier days need no request.
const GAP_MARGIN: Micros = 15 * 60 * 1_000_000;

/// How long after a subscription's confirmation its tenors' snapshots may
/// still come (the interface does not say they precede the answer to the
/// marker ping that confirms it); a gap whose snapshot has not come by then
/// is backfilled.
pub(super) const SNAPSHOT_GRACE: Duration = Duration::from_secs(1);

/// The gaps opened by the last reconnect.
///
/// Days are chosen on the service's clock, read from the `generatedOn` of
/// the prices it sends, never on this machine's: a client whose clock is
/// off, or an emulator whose clock runs elsewhere in time, must still ask
/// for the right days.
#[derive(Default)]
pub(super) struct GapRound {
    /// The newest publication time the feed has shown (the service's "now",
    /// as far as this client can tell).
    service_time: Option<Micros>,
    /// The service time when the connection was lost, while gaps of it are
    /// unfilled: it bounds which days a backfill asks for.
    hint: Option<Micros>,
    open: usize,
    failed: bool,
    /// Some value was backfilled (the statistics count a gap once per reconnect).
    filled: bool,
    /// Confirmed subscriptions whose tenors' snapshots may still come, and
    /// until when, oldest first.
    graces: Vec<(Instant, Subscription)>,
    /// Where this round's backfills found each curve's newest values.
    hints: Arc<PageHints>,
}

impl GapRound {
    pub(super) fn saw_service_time(&mut self, at: Micros) {
        if self.service_time.is_none_or(|seen| at > seen) {
            self.service_time = Some(at);
        }
    }

    /// The service's "now" for a gap starting at `since`: the newest time
    /// seen, which after a reconnect includes the fresh snapshots.
    fn service_now(&self, since: Micros) -> Micros {
        self.service_time.map_or(since, |seen| seen.max(since))
    }

    pub(super) fn connection_lost(&mut self) {
        if self.hint.is_none() {
            self.hint = self.service_time;
        }
        self.open = 0;
        self.failed = false;
        self.filled = false;
        self.graces.clear();
        self.hints = Arc::default();
    }

    /// When the oldest grace ends.
    pub(super) fn grace_ends(&self) -> Option<Instant> {
        self.graces.first().map(|(at, _)| *at)
    }

    /// The subscriptions whose graces have ended by `now`.
    fn graces_ended(&mut self, now: Instant) -> Vec<Subscription> {
        let ended = self.graces.partition_point(|(at, _)| *at <= now);
        self.graces.drain(..ended).map(|(_, sub)| sub).collect()
    }

    pub(super) fn opened(&mut self, count: usize) {
        self.open = count;
        if count == 0 {
            self.hint = None;
        }
    }

    /// Gaps opened while connected, by a subscription covering resumed tenors.
    pub(super) fn opened_more(&mut self, count: usize) {
        self.open += count;
    }

    /// Where a gap after a last delivered time `last` starts, for choosing days.
    fn since(&self, last: Micros) -> Micros {
        self.hint.map_or(last, |hint| last.max(hint - GAP_MARGIN))
    }

    fn closed(&mut self, failed: bool) {
        self.open = self.open.saturating_sub(1);
        self.failed |= failed;
        if self.open == 0 && !self.failed {
            self.hint = None;
        }
    }
}

impl Session {
    /// A subscription is confirmed: its tenors that have not sent their
    /// snapshot yet get [`SNAPSHOT_GRACE`] to do so.
    pub(super) fn await_snapshots(&mut self, subscription: Subscription) {
        let ends = Instant::now() + SNAPSHOT_GRACE;
        self.gaps.graces.push((ends, subscription));
    }

    /// Backfills the gaps whose snapshots did not come in their grace.
    pub(super) fn graces_ended(&mut self) {
        for subscription in self.gaps.graces_ended(Instant::now()) {
            for request in self.book.gaps_without_snapshot(&subscription) {
                self.start_backfill(request);
            }
        }
    }

    /// Starts the backfills that snapshots asked for, and closes the gaps
    /// they showed to be empty.
    pub(super) fn start_decided_gaps(&mut self) {
        let decided = self.book.take_decided();
        Counters::add(&self.shared.counters.gaps_skipped, decided.skipped as u64);
        for _ in 0..decided.skipped {
            self.gaps.closed(false);
        }
        for request in decided.ready {
            self.start_backfill(request);
        }
    }

    fn start_backfill(&mut self, request: GapRequest) {
        let from = self.gaps.since(request.since);
        let gap = GapSpan {
            after: request.since,
            from,
            until: request.until,
            now: self.gaps.service_now(from),
        };
        let backfiller = Arc::clone(&self.backfiller);
        let shared = Arc::clone(&self.shared);
        let hints = Arc::clone(&self.gaps.hints);
        self.backfills.spawn(async move {
            let fetch = async {
                let (curve_id, tenor) = (&request.curve_id, &request.tenor);
                let counted = (&*hints, &shared.counters.backfill_requests);
                backfiller
                    .published_since(curve_id, tenor, gap, counted)
                    .await
            };
            // A panic must still close the gap, or its tenor would stall.
            let result = AssertUnwindSafe(fetch).catch_unwind().await;
            let result = result.unwrap_or_else(|_| {
                Err(ClientError::Service {
                    endpoint: "live feed backfill".into(),
                    status: None,
                    attempts: 1,
                    message: "the backfill panicked".into(),
                    advice: None,
                })
            });
            (request, result)
        });
    }

    /// Merges a finished backfill into the deliveries.
    pub(super) fn gap_done(&mut self, joined: Result<GapOutcome, JoinError>, rows: &mut Vec<Row>) {
        // An aborted backfill belonged to a lost connection.
        let Ok((request, result)) = joined else {
            return;
        };
        let counters = &self.shared.counters;
        let (curve_id, tenor) = (&*request.curve_id, &*request.tenor);
        let backfill = match result {
            Ok(values) => Some(values),
            Err(error) => {
                Counters::add(&counters.backfill_failures, 1);
                self.events.emit(FeedEvent::Error {
                    message: format!(
                        "backfill of curve {curve_id} tenor {tenor:?} failed, values \
                         published while disconnected are missing: {error}"
                    ),
                });
                None
            }
        };
        let failed = backfill.is_none();
        let Some(report) = self
            .book
            .fill_gap(request.id, curve_id, tenor, backfill, rows)
        else {
            return;
        };
        Counters::add(&counters.duplicates_dropped, report.duplicates as u64);
        Counters::add(&counters.backfilled, report.backfilled as u64);
        if let Some((from, to)) = report.span {
            if !std::mem::replace(&mut self.gaps.filled, true) {
                Counters::add(&counters.gaps_filled, 1);
            }
            self.events.emit(FeedEvent::GapFilled {
                curve_id: curve_id.to_owned(),
                tenor: tenor.to_owned(),
                count: report.backfilled,
                from,
                to,
            });
        }
        self.gaps.closed(failed);
    }
}

#[cfg(test)]
#[path = "gaps_tests.rs"]
mod tests;
