//! One delivered value of the feed.

use std::sync::Arc;

use domain::timestamp::Micros;

/// Where a delivered value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TickSource {
    /// The latest value the service sends when a subscription is made,
    /// however old (docs/protocol.md#live-feed).
    Snapshot,
    /// A value pushed after the snapshot.
    Update,
    /// A value published while the connection was down, fetched from the
    /// intraday endpoints after the reconnect.
    Backfill,
}

impl TickSource {
    pub fn as_str(self) -> &'static str {
        match self {
            TickSource::Snapshot => "snapshot",
            TickSource::Update => "update",
            TickSource::Backfill => "backfill",
        }
    }
}

/// A price as delivered to the consumer. Curve and tenor are shared strings,
/// one per (curve, tenor) for the life of the feed, so a tick costs no
/// allocation. `generated_on` is in microseconds: milliseconds from the feed,
/// microseconds from a backfill.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub curve_id: Arc<str>,
    pub tenor: Arc<str>,
    pub generated_on: Micros,
    pub price: f64,
    pub source: TickSource,
}
