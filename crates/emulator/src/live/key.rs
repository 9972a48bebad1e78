//! One (curve, tenor) someone is subscribed to: what its frames are made of,
//! and its synthetic series for the firehose, shared by every connection so
//! that each tenor's values only ever move forward.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use super::frame::{FrameEncoder, FramePieces};
use domain::tenor::Tenor;
use domain::timestamp::{truncate_to_millis, Micros};

/// Steps of the synthetic price before it repeats.
const SYNTHETIC_CYCLE: u64 = 1_000;

#[derive(Debug)]
pub(crate) struct FeedKey {
    /// Identifies the key in outboxes.
    pub id: u64,
    /// The curve's index in the world.
    pub curve: usize,
    /// None for a name the curve never publishes (an unknown shape, or a
    /// known one not spelt as the service spells it).
    pub tenor: Option<Tenor>,
    pieces: FramePieces,
    synthetic_at: AtomicI64,
    synthetic_count: AtomicU64,
    synthetic_base: f64,
}

impl FeedKey {
    /// `first_at`: synthetic values come strictly after it; `base`: the
    /// price they vary around.
    pub(crate) fn new(
        id: u64,
        curve: usize,
        curve_id: &str,
        tenor_name: &str,
        tenor: Option<Tenor>,
        first_at: Micros,
        base: f64,
    ) -> FeedKey {
        FeedKey {
            id,
            curve,
            tenor,
            pieces: FramePieces::new(curve_id, tenor_name),
            synthetic_at: AtomicI64::new(first_at),
            synthetic_count: AtomicU64::new(0),
            synthetic_base: base,
        }
    }

    /// The instant of the last synthetic value (or the start of the series).
    pub(crate) fn synthetic_at(&self) -> Micros {
        self.synthetic_at.load(Ordering::SeqCst)
    }

    /// The frame of the next synthetic value: at `now` or 1 ms after the
    /// previous one, whichever is later, so that each is strictly later than
    /// the last even at millisecond precision.
    pub(crate) fn next_synthetic(
        &self,
        now: Micros,
        encoder: &mut FrameEncoder,
    ) -> axum::extract::ws::Utf8Bytes {
        let next = |previous: Micros| truncate_to_millis(now.max(previous + 1_000));
        let previous = self
            .synthetic_at
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |p| Some(next(p)))
            .expect("the update always succeeds");
        let step = self.synthetic_count.fetch_add(1, Ordering::Relaxed) % SYNTHETIC_CYCLE;
        let price = ((self.synthetic_base + step as f64 * 0.001) * 1_000.0).round() / 1_000.0;
        encoder.encode(&self.pieces, next(previous), price)
    }
}

#[cfg(test)]
#[path = "key_tests.rs"]
mod tests;
