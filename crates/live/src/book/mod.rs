//! The session's record of every tenor it has seen: whether a subscription
//! covers it, whether its next value is a snapshot, the last time delivered
//! (for dedupe), and, after a reconnect, whether its gap needs a backfill
//! (its snapshot decides) and the live values held back while it runs.
//!
//! Curve and tenor names are interned here: one `Arc<str>` each for the life
//! of the feed, and each (curve, tenor) named by a [`NameKey`] of the feed's
//! [`Names`], which its values carry. Look-ups borrow the frame's `&str`, so
//! the hot path allocates nothing and touches no reference count.

mod gaps;

use std::sync::Arc;

use ahash::AHashMap as HashMap;

use super::merge::{Value, Watermark};
use super::names::{NameKey, Names, Row};
use super::tick::TickSource;
use domain::live::Subscription;
use domain::timestamp::Micros;

use gaps::Decided;
pub(crate) use gaps::GapRequest;

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

struct Gap {
    id: u64,
    /// The last value delivered, truncated to milliseconds.
    since: Micros,
    /// Its backfill has been asked for. Until then the gap waits for the
    /// tenor's snapshot, which tells whether anything was missed.
    started: bool,
    buffer: Vec<Value>,
}

struct TenorState {
    name: Arc<str>,
    key: NameKey,
    explicit: bool,
    /// An explicit subscribe was sent and its snapshot has not come yet.
    snapshot_pending: bool,
    /// The curve's snapshot round this tenor last had a value in.
    seen_round: u64,
    mark: Watermark,
    /// Its mark comes from an earlier run (`resume`) and no gap has been
    /// opened for it yet: whenever a subscription comes to cover it, what
    /// was published since is backfilled.
    resumed: bool,
    gap: Option<Gap>,
}

impl TenorState {
    /// A tenor seen for the first time: named in `names`.
    fn new(curve_id: &Arc<str>, name: Arc<str>, names: &Names) -> TenorState {
        TenorState {
            key: names.add(curve_id, &name),
            name,
            explicit: false,
            snapshot_pending: false,
            seen_round: 0,
            mark: Watermark::default(),
            resumed: false,
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
    fn tenor(&mut self, name: &str, names: &Names) -> &mut TenorState {
        if !self.tenors.contains_key(name) {
            let name: Arc<str> = Arc::from(name);
            let state = TenorState::new(&self.id, Arc::clone(&name), names);
            self.tenors.insert(name, state);
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
        held: (&mut HoldBack, &mut Decided),
        out: &mut Vec<Row>,
    ) -> Arrival {
        let (hold, decided) = held;
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
        if !decided.first_value(self.curve_id, state, at, snapshot) {
            return Arrival::Duplicate;
        }
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
        out.push(Row {
            key: state.key,
            generated_on: at,
            price,
            source,
        });
        Arrival::Delivered
    }
}

pub(crate) struct Book {
    curves: HashMap<Arc<str>, CurveState>,
    /// Shared with the readers, which look the keys of the rows up.
    names: Arc<Names>,
    next_gap: u64,
    hold: HoldBack,
    /// Gaps decided by their snapshots since the session last looked.
    decided: Decided,
}

impl Book {
    pub(crate) fn new(buffer_limit: usize, names: Arc<Names>) -> Book {
        Book {
            curves: HashMap::new(),
            names,
            next_gap: 0,
            hold: HoldBack {
                held: 0,
                limit: buffer_limit.max(1),
                conflated: 0,
            },
            decided: Decided::default(),
        }
    }

    /// A curve's state, made on first sight (a function of the map alone,
    /// so that the names can be borrowed beside it).
    fn curve_in<'a>(curves: &'a mut HashMap<Arc<str>, CurveState>, id: &str) -> &'a mut CurveState {
        if !curves.contains_key(id) {
            let id: Arc<str> = Arc::from(id);
            let state = CurveState {
                id: Arc::clone(&id),
                all_tenors: false,
                snapshot_round: 0,
                snapshots_open: 0,
                tenors: HashMap::new(),
            };
            curves.insert(id, state);
        }
        curves.get_mut(id).expect("just inserted")
    }

    /// Makes the subscriptions the ones that decide what is delivered. A
    /// tenor no longer covered loses its pending gap and held-back values.
    pub(crate) fn cover(&mut self, subscriptions: &[Subscription]) {
        for curve in self.curves.values_mut() {
            curve.all_tenors = false;
            for tenor in curve.tenors.values_mut() {
                tenor.explicit = false;
            }
        }
        for sub in subscriptions {
            let curve = Book::curve_in(&mut self.curves, &sub.curve_id);
            if sub.is_all_tenors() {
                curve.all_tenors = true;
            } else {
                curve.tenor(&sub.tenor, &self.names).explicit = true;
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

    /// `at` is the last value of a tenor delivered before this feed (by an
    /// earlier run): later values only are delivered, and once its
    /// subscription is confirmed, those published since are backfilled.
    pub(crate) fn resume(&mut self, curve_id: &str, tenor: &str, at: Micros) {
        let state = Book::curve_in(&mut self.curves, curve_id).tenor(tenor, &self.names);
        state.mark = Watermark::default();
        state.mark.admit(at);
        state.resumed = true;
    }

    /// A subscribe is being sent: the next value of what it covers is a snapshot.
    pub(crate) fn expect_snapshot(&mut self, sub: &Subscription) {
        let curve = Book::curve_in(&mut self.curves, &sub.curve_id);
        if sub.is_all_tenors() {
            curve.snapshot_round += 1;
            curve.snapshots_open += 1;
        } else {
            curve.tenor(&sub.tenor, &self.names).snapshot_pending = true;
        }
    }

    /// The service has answered the subscribe: its snapshots have all come.
    pub(crate) fn snapshot_done(&mut self, sub: &Subscription) {
        let curve = Book::curve_in(&mut self.curves, &sub.curve_id);
        if sub.is_all_tenors() {
            curve.snapshots_open = curve.snapshots_open.saturating_sub(1);
        } else {
            curve.tenor(&sub.tenor, &self.names).snapshot_pending = false;
        }
    }

    /// Takes a price from the feed: delivered into `out` if new, held back
    /// if its tenor's gap is being filled.
    pub(crate) fn on_price(
        &mut self,
        curve_id: &str,
        tenor: &str,
        at: Micros,
        price: f64,
        out: &mut Vec<Row>,
    ) -> Arrival {
        let Some(curve) = self.curves.get_mut(curve_id) else {
            return Arrival::Uncovered;
        };
        let CurveState {
            id,
            all_tenors,
            snapshot_round,
            snapshots_open,
            tenors,
        } = curve;
        let context = PriceContext {
            curve_id: id,
            all_tenors: *all_tenors,
            round: (*snapshots_open > 0).then_some(*snapshot_round),
        };
        let held = (&mut self.hold, &mut self.decided);
        match tenors.get_mut(tenor) {
            Some(state) => context.take(state, at, price, held, out),
            None if context.all_tenors => {
                let name: Arc<str> = Arc::from(tenor);
                let mut state = TenorState::new(id, Arc::clone(&name), &self.names);
                let arrival = context.take(&mut state, at, price, held, out);
                tenors.insert(name, state);
                arrival
            }
            None => Arrival::Uncovered,
        }
    }

    /// The connection is lost: gaps and pending snapshots start again on the
    /// next one. Held-back values are dropped: they are later than the last
    /// delivered time, so the next backfill brings them.
    pub(crate) fn connection_lost(&mut self) {
        for curve in self.curves.values_mut() {
            curve.snapshots_open = 0;
            for tenor in curve.tenors.values_mut() {
                tenor.snapshot_pending = false;
                tenor.gap = None;
            }
        }
        self.hold.held = 0;
        self.decided = Decided::default();
    }

    /// Held-back values replaced by newer ones of their tenor so far.
    pub(crate) fn conflated(&self) -> u64 {
        self.hold.conflated
    }
}

#[cfg(test)]
mod tests;
