//! Which values of a tenor to deliver after a gap: the backfilled ones, then
//! the live ones that arrived while the backfill ran, each once, in time
//! order, all after the last value delivered before the gap.
//!
//! Times are compared truncated to milliseconds: the feed prints
//! milliseconds, the intraday endpoints microseconds (interface, Events rule
//! 5). A value is delivered only if its truncated time is strictly later than
//! that of the last value delivered, so the snapshot the resubscription
//! brings, already delivered or already backfilled, is not delivered again.

use super::tick::TickSource;
use domain::timestamp::{truncate_to_millis, Micros};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Value {
    pub at: Micros,
    pub price: f64,
    pub source: TickSource,
}

/// The last delivered time of one tenor (truncated to milliseconds) and the
/// rule that keeps deliveries strictly increasing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Watermark(pub Option<Micros>);

impl Watermark {
    /// Whether a value of time `at` is new; if so it becomes the last one.
    pub(crate) fn admit(&mut self, at: Micros) -> bool {
        let at = truncate_to_millis(at);
        if self.0.is_some_and(|last| at <= last) {
            return false;
        }
        self.0 = Some(at);
        true
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Merged {
    /// To deliver, in this order.
    pub values: Vec<Value>,
    /// How many of them came from the backfill.
    pub backfilled: usize,
    /// Values left out because one as recent had been or was being delivered.
    pub duplicates: usize,
}

/// The values to deliver after a gap. `backfill` may come in any order (the
/// endpoints' order is not stated); `buffered` are the live values received
/// meanwhile, in arrival order. `watermark` moves to the last delivered time.
pub(crate) fn merge_gap(
    watermark: &mut Watermark,
    mut backfill: Vec<(Micros, f64)>,
    buffered: Vec<Value>,
) -> Merged {
    backfill.sort_by_key(|(at, _)| *at);
    let mut merged = Merged::default();
    for (at, price) in backfill {
        if watermark.admit(at) {
            merged.values.push(Value {
                at,
                price,
                source: TickSource::Backfill,
            });
            merged.backfilled += 1;
        } else {
            merged.duplicates += 1;
        }
    }
    for value in buffered {
        if watermark.admit(value.at) {
            merged.values.push(value);
        } else {
            merged.duplicates += 1;
        }
    }
    merged
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
