//! The gaps of the book: after a reconnect each tenor delivered before holds
//! its live values back until its backfill is in, then both are merged.

use std::sync::Arc;

use super::{Book, Gap, TenorState};
use crate::live::merge::merge_gap;
use crate::live::names::Row;
use domain::live::Subscription;
use domain::timestamp::Micros;

/// A backfill to run: the values of a tenor published after `since`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GapRequest {
    pub id: u64,
    pub curve_id: Arc<str>,
    pub tenor: Arc<str>,
    pub since: Micros,
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
    pub fn open_gaps(&mut self) -> usize {
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
    pub fn open_resumed_gaps(&mut self, sub: &Subscription) -> usize {
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

    /// The gaps a confirmed subscription lets us fill: from now on the
    /// service pushes every new value of its tenors, so what the endpoints
    /// return, fetched after this, leaves nothing out.
    pub fn gaps_to_fill(&mut self, sub: &Subscription) -> Vec<GapRequest> {
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
                });
            }
        }
        requests
    }

    /// Closes gap `id` with what the backfill found (None: it failed),
    /// delivering into `out`. None if that gap is no longer open.
    pub fn fill_gap(
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
    pub fn open_gap_count(&self) -> usize {
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
