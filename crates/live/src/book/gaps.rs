//! The gaps of the book: after a reconnect each tenor delivered before
//! waits for its snapshot, which says whether anything was published while
//! the feed was away (live rule 1). If so, the tenor holds its live values
//! back until its backfill is in, then both are merged.

use std::cmp::Ordering;
use std::sync::Arc;

use super::{Book, Gap, TenorState};
use crate::merge::merge_gap;
use crate::names::Row;
use domain::live::Subscription;
use domain::timestamp::{truncate_to_millis, Micros};

/// A backfill to run: the values of a tenor published after `since`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GapRequest {
    pub id: u64,
    pub curve_id: Arc<str>,
    pub tenor: Arc<str>,
    pub since: Micros,
    /// The newest value missed, when the snapshot told it; None when no
    /// snapshot came, or one older than `since`.
    pub until: Option<Micros>,
}

/// Gaps decided by the first value of their tenor after a resubscription,
/// waiting for the session to start their backfills or count them.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Decided {
    pub ready: Vec<GapRequest>,
    /// Gaps closed with no request: the snapshot was the last value delivered.
    pub skipped: usize,
}

impl Decided {
    /// Decides the gap of `state`, if it waits for its snapshot, on the
    /// first value since the resubscription; false if that value is no
    /// later than the last one delivered (a duplicate).
    ///
    /// A resubscription sends each tenor's last published value, however old
    /// (live rule 1). A snapshot whose time, truncated to milliseconds as
    /// the feed prints it (rule 5), is that of the last value delivered
    /// proves that nothing was published in between: the gap closes with no
    /// request. A later value means values may lie between: they are
    /// backfilled, up to it. A snapshot older than the last value delivered
    /// means the feed's memory went back (a restart of the service that lost
    /// its latest values): its word is not taken, and the gap is backfilled
    /// from the intraday endpoints, the service's record, with no upper
    /// bound. An update no later than the last value (a repeat) decides
    /// nothing.
    pub(super) fn first_value(
        &mut self,
        curve_id: &Arc<str>,
        state: &mut TenorState,
        at: Micros,
        snapshot: bool,
    ) -> bool {
        let Some(gap) = state.gap.as_mut().filter(|gap| !gap.started) else {
            return true;
        };
        let until = match (snapshot, truncate_to_millis(at).cmp(&gap.since)) {
            (true, Ordering::Equal) => {
                state.gap = None;
                self.skipped += 1;
                return false;
            }
            (_, Ordering::Greater) => Some(at),
            (true, Ordering::Less) => None,
            (false, _) => return false,
        };
        gap.started = true;
        self.ready.push(GapRequest {
            id: gap.id,
            curve_id: Arc::clone(curve_id),
            tenor: Arc::clone(&state.name),
            since: gap.since,
            until,
        });
        true
    }
}

/// What filling a gap delivered.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GapReport {
    pub backfilled: usize,
    /// Time of the first and last backfilled value delivered.
    pub span: Option<(Micros, Micros)>,
    pub duplicates: usize,
}

impl Book {
    /// After a reconnect: every covered tenor delivered before holds its live
    /// values back until its gap is filled. Returns how many gaps opened.
    pub(crate) fn open_gaps(&mut self) -> usize {
        let mut opened = 0;
        for curve in self.curves.values_mut() {
            let all = curve.all_tenors;
            for tenor in curve.tenors.values_mut() {
                if all || tenor.explicit {
                    opened += usize::from(open_gap(&mut self.next_gap, tenor));
                }
            }
        }
        opened
    }

    /// A subscription made while connected: the tenors it covers that were
    /// resumed from an earlier run and have not had a gap yet open theirs
    /// now, before it is sent, as they would have had it been made before
    /// the connection (a feed subscribes one subscription at a time, so all
    /// but the first are made once connected). Returns how many opened.
    pub(crate) fn open_resumed_gaps(&mut self, sub: &Subscription) -> usize {
        let Some(curve) = self.curves.get_mut(sub.curve_id.as_str()) else {
            return 0;
        };
        let mut opened = 0;
        for tenor in curve.tenors.values_mut() {
            let covered = sub.is_all_tenors() || *tenor.name == *sub.tenor;
            if covered && tenor.resumed {
                opened += usize::from(open_gap(&mut self.next_gap, tenor));
            }
        }
        opened
    }

    /// The gaps decided by their tenors' first values since the session
    /// last asked.
    pub(crate) fn take_decided(&mut self) -> Decided {
        std::mem::take(&mut self.decided)
    }

    /// The gaps of a confirmed subscription whose tenors sent no snapshot
    /// (live rule 2: a tenor with no value sends nothing; an expired
    /// contract, say), to be backfilled, or closed on a 404. The service
    /// pushes every new value of its tenors from the confirmation on, so
    /// what the endpoints return, fetched after it, leaves nothing out.
    pub(crate) fn gaps_without_snapshot(&mut self, sub: &Subscription) -> Vec<GapRequest> {
        let Some(curve) = self.curves.get_mut(sub.curve_id.as_str()) else {
            return Vec::new();
        };
        let mut requests = Vec::new();
        for tenor in curve.tenors.values_mut() {
            if !sub.is_all_tenors() && *tenor.name != *sub.tenor {
                continue;
            }
            if let Some(gap) = tenor.gap.as_mut().filter(|g| !g.started) {
                gap.started = true;
                requests.push(GapRequest {
                    id: gap.id,
                    curve_id: Arc::clone(&curve.id),
                    tenor: Arc::clone(&tenor.name),
                    since: gap.since,
                    until: None,
                });
            }
        }
        requests
    }

    /// Closes gap `id` with what the backfill found (None: it failed),
    /// delivering into `out`. None if that gap is no longer open.
    pub(crate) fn fill_gap(
        &mut self,
        id: u64,
        curve_id: &str,
        tenor: &str,
        backfill: Option<Vec<(Micros, f64)>>,
        out: &mut Vec<Row>,
    ) -> Option<GapReport> {
        let curve = self.curves.get_mut(curve_id)?;
        let state = curve.tenors.get_mut(tenor)?;
        if state.gap.as_ref().is_none_or(|g| g.id != id || !g.started) {
            return None;
        }
        let gap = state.gap.take().expect("checked");
        self.hold.held -= gap.buffer.len();
        let merged = merge_gap(&mut state.mark, backfill.unwrap_or_default(), gap.buffer);
        let backfilled = &merged.values[..merged.backfilled];
        let span = backfilled
            .first()
            .zip(backfilled.last())
            .map(|(first, last)| (first.at, last.at));
        out.extend(merged.values.iter().map(|value| Row {
            key: state.key,
            generated_on: value.at,
            price: value.price,
            source: value.source,
        }));
        Some(GapReport {
            backfilled: merged.backfilled,
            span,
            duplicates: merged.duplicates,
        })
    }

    #[cfg(test)]
    pub(crate) fn open_gap_count(&self) -> usize {
        self.curves
            .values()
            .flat_map(|c| c.tenors.values())
            .filter(|t| t.gap.is_some())
            .count()
    }
}

/// Opens a gap for a tenor delivered before (by this feed or, resumed, by
/// an earlier run), unless one is open already.
fn open_gap(next_gap: &mut u64, tenor: &mut TenorState) -> bool {
    let Some(since) = tenor.mark.0 else {
        return false;
    };
    if tenor.gap.is_some() {
        return false;
    }
    tenor.gap = Some(Gap {
        id: *next_gap,
        since,
        started: false,
        buffer: Vec::new(),
    });
    tenor.resumed = false;
    *next_gap += 1;
    true
}
