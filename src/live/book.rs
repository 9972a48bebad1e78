//! The session's record of every tenor it has seen: whether a subscription
//! covers it, whether its next value is a snapshot, the last time delivered
//! (for dedupe), and, after a reconnect, the live values held back while its
//! gap is backfilled.
//!
//! Curve and tenor names are interned here: one `Arc<str>` each for the life
//! of the feed, shared by every tick. Look-ups borrow the frame's `&str`, so
//! the hot path allocates nothing.

use std::collections::HashMap;
use std::sync::Arc;

use super::merge::{merge_gap, Value, Watermark};
use super::tick::{Tick, TickSource};
use crate::domain::live::Subscription;
use crate::domain::timestamp::Micros;

/// What became of a price from the feed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arrival {
    Delivered,
    /// Not later than the last value delivered for its tenor.
    Duplicate,
    /// Held back until the tenor's backfill is in.
    Buffered,
    /// No subscription covers it (one just removed, say).
    Uncovered,
}

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

struct Gap {
    id: u64,
    since: Micros,
    started: bool,
    buffer: Vec<Value>,
}

struct TenorState {
    name: Arc<str>,
    explicit: bool,
    /// An explicit subscribe was sent and its snapshot has not come yet.
    snapshot_pending: bool,
    /// The curve's snapshot round this tenor last had a value in.
    seen_round: u64,
    mark: Watermark,
    gap: Option<Gap>,
}

impl TenorState {
    fn new(name: Arc<str>) -> TenorState {
        TenorState {
            name,
            explicit: false,
            snapshot_pending: false,
            seen_round: 0,
            mark: Watermark::default(),
            gap: None,
        }
    }
}

struct CurveState {
    id: Arc<str>,
    all_tenors: bool,
    /// Bumped by each `*` subscribe: a tenor's first value in a new round,
    /// while the subscribe is unconfirmed, is its snapshot.
    snapshot_round: u64,
    /// `*` subscribes sent and not yet confirmed.
    snapshots_open: u32,
    tenors: HashMap<Arc<str>, TenorState>,
}

impl CurveState {
    fn tenor(&mut self, name: &str) -> &mut TenorState {
        if !self.tenors.contains_key(name) {
            let name: Arc<str> = Arc::from(name);
            self.tenors.insert(Arc::clone(&name), TenorState::new(name));
        }
        self.tenors.get_mut(name).expect("just inserted")
    }
}

/// Live values held back in all gaps, bounded like the delivery queue.
struct HoldBack {
    held: usize,
    limit: usize,
    /// Held-back values replaced by newer ones of their tenor at the limit.
    conflated: u64,
}

/// What a price's curve says about it.
struct PriceContext<'a> {
    curve_id: &'a Arc<str>,
    all_tenors: bool,
    /// The open snapshot round of a `*` subscribe, if any.
    round: Option<u64>,
}

impl PriceContext<'_> {
    fn take(
        &self,
        state: &mut TenorState,
        at: Micros,
        price: f64,
        hold: &mut HoldBack,
        out: &mut Vec<Tick>,
    ) -> Arrival {
        if !(state.explicit || self.all_tenors) {
            return Arrival::Uncovered;
        }
        let snapshot = state.snapshot_pending || self.round.is_some_and(|r| state.seen_round != r);
        state.snapshot_pending = false;
        if let Some(round) = self.round {
            state.seen_round = round;
        }
        let source = if snapshot {
            TickSource::Snapshot
        } else {
            TickSource::Update
        };
        if let Some(gap) = state.gap.as_mut() {
            let value = Value { at, price, source };
            match gap.buffer.last_mut() {
                Some(last) if hold.held >= hold.limit => {
                    *last = value;
                    hold.conflated += 1;
                }
                _ => {
                    gap.buffer.push(value);
                    hold.held += 1;
                }
            }
            return Arrival::Buffered;
        }
        if !state.mark.admit(at) {
            return Arrival::Duplicate;
        }
        out.push(Tick {
            curve_id: Arc::clone(self.curve_id),
            tenor: Arc::clone(&state.name),
            generated_on: at,
            price,
            source,
        });
        Arrival::Delivered
    }
}

pub(crate) struct Book {
    curves: HashMap<Arc<str>, CurveState>,
    next_gap: u64,
    hold: HoldBack,
}

impl Book {
    pub fn new(buffer_limit: usize) -> Book {
        Book {
            curves: HashMap::new(),
            next_gap: 0,
            hold: HoldBack {
                held: 0,
                limit: buffer_limit.max(1),
                conflated: 0,
            },
        }
    }

    fn curve(&mut self, id: &str) -> &mut CurveState {
        if !self.curves.contains_key(id) {
            let id: Arc<str> = Arc::from(id);
            let state = CurveState {
                id: Arc::clone(&id),
                all_tenors: false,
                snapshot_round: 0,
                snapshots_open: 0,
                tenors: HashMap::new(),
            };
            self.curves.insert(id, state);
        }
        self.curves.get_mut(id).expect("just inserted")
    }

    /// Makes the subscriptions the ones that decide what is delivered. A
    /// tenor no longer covered loses its pending gap and held-back values.
    pub fn cover(&mut self, subscriptions: &[Subscription]) {
        for curve in self.curves.values_mut() {
            curve.all_tenors = false;
            for tenor in curve.tenors.values_mut() {
                tenor.explicit = false;
            }
        }
        for sub in subscriptions {
            let curve = self.curve(&sub.curve_id);
            if sub.is_all_tenors() {
                curve.all_tenors = true;
            } else {
                curve.tenor(&sub.tenor).explicit = true;
            }
        }
        let mut released = 0;
        for curve in self.curves.values_mut() {
            let all = curve.all_tenors;
            for tenor in curve.tenors.values_mut() {
                if !(all || tenor.explicit) {
                    if let Some(gap) = tenor.gap.take() {
                        released += gap.buffer.len();
                    }
                }
            }
        }
        self.hold.held -= released;
    }

    /// A subscribe is being sent: the next value of what it covers is a snapshot.
    pub fn expect_snapshot(&mut self, sub: &Subscription) {
        let curve = self.curve(&sub.curve_id);
        if sub.is_all_tenors() {
            curve.snapshot_round += 1;
            curve.snapshots_open += 1;
        } else {
            curve.tenor(&sub.tenor).snapshot_pending = true;
        }
    }

    /// The service has answered the subscribe: its snapshots have all come.
    pub fn snapshot_done(&mut self, sub: &Subscription) {
        let curve = self.curve(&sub.curve_id);
        if sub.is_all_tenors() {
            curve.snapshots_open = curve.snapshots_open.saturating_sub(1);
        } else {
            curve.tenor(&sub.tenor).snapshot_pending = false;
        }
    }

    /// Takes a price from the feed: delivered into `out` if new, held back
    /// if its tenor's gap is being filled.
    pub fn on_price(
        &mut self,
        curve_id: &str,
        tenor: &str,
        at: Micros,
        price: f64,
        out: &mut Vec<Tick>,
    ) -> Arrival {
        let Some(curve) = self.curves.get_mut(curve_id) else {
            return Arrival::Uncovered;
        };
        let context = PriceContext {
            curve_id: &curve.id,
            all_tenors: curve.all_tenors,
            round: (curve.snapshots_open > 0).then_some(curve.snapshot_round),
        };
        let hold = &mut self.hold;
        match curve.tenors.get_mut(tenor) {
            Some(state) => context.take(state, at, price, hold, out),
            None if context.all_tenors => {
                let name: Arc<str> = Arc::from(tenor);
                let mut state = TenorState::new(Arc::clone(&name));
                let arrival = context.take(&mut state, at, price, hold, out);
                curve.tenors.insert(name, state);
                arrival
            }
            None => Arrival::Uncovered,
        }
    }

    /// After a reconnect: every covered tenor delivered before holds its live
    /// values back until its gap is filled. Returns how many gaps opened.
    pub fn open_gaps(&mut self) -> usize {
        let mut opened = 0;
        for curve in self.curves.values_mut() {
            let all = curve.all_tenors;
            for tenor in curve.tenors.values_mut() {
                let Some(since) = tenor.mark.0 else { continue };
                if (all || tenor.explicit) && tenor.gap.is_none() {
                    tenor.gap = Some(Gap {
                        id: self.next_gap,
                        since,
                        started: false,
                        buffer: Vec::new(),
                    });
                    self.next_gap += 1;
                    opened += 1;
                }
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
        out: &mut Vec<Tick>,
    ) -> Option<GapReport> {
        let curve = self.curves.get_mut(curve_id)?;
        let curve_arc = Arc::clone(&curve.id);
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
        out.extend(merged.values.iter().map(|value| Tick {
            curve_id: Arc::clone(&curve_arc),
            tenor: Arc::clone(&state.name),
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

    /// The connection is lost: gaps and pending snapshots start again on the
    /// next one. Held-back values are dropped: they are later than the last
    /// delivered time, so the next backfill brings them.
    pub fn connection_lost(&mut self) {
        for curve in self.curves.values_mut() {
            curve.snapshots_open = 0;
            for tenor in curve.tenors.values_mut() {
                tenor.snapshot_pending = false;
                tenor.gap = None;
            }
        }
        self.hold.held = 0;
    }

    /// Held-back values replaced by newer ones of their tenor so far.
    pub fn conflated(&self) -> u64 {
        self.hold.conflated
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

#[cfg(test)]
#[path = "book_tests.rs"]
mod tests;
