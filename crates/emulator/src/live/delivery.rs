//! Handing a publisher cycle's values to the subscribers' outboxes.
//!
//! After a jump of the clock a cycle may hold many values of one tenor. The
//! outboxes keep only the latest value per tenor, so pushed all at once they
//! would reach even a fast reader as one. They go out in rounds instead, at
//! most one value per tenor each, oldest first, and a round waits for the
//! writers to take the previous one, as time passing would have let them;
//! a writer stuck on a slow reader is not waited for, and its outbox
//! conflates (docs/protocol.md#live-feed).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;

use super::peer::Peer;
use super::Live;
use domain::timestamp::Micros;

/// The longest a round waits for free writers to take their values. Only a
/// writer that has not been scheduled yet makes it wait (one stuck on a slow
/// reader does not), so it can be generous: on a loaded machine a short wait
/// let a fast reader's values conflate as if it were slow.
const ROUND_WAIT: Duration = Duration::from_millis(500);

/// Values of one cycle for the subscribers of their keys.
#[derive(Default)]
pub(super) struct Deliveries {
    /// A key and its subscribers when the values were made.
    audiences: Vec<(u64, Vec<Arc<Peer>>)>,
    /// The instant, the audience and the frame of each value.
    values: Vec<(Micros, usize, Utf8Bytes)>,
}

impl Deliveries {
    /// Adds the values of one key, oldest first.
    pub(super) fn add(
        &mut self,
        key: u64,
        peers: Vec<Arc<Peer>>,
        values: impl IntoIterator<Item = (Micros, String)>,
    ) {
        let audience = self.audiences.len();
        self.audiences.push((key, peers));
        let frames = values
            .into_iter()
            .map(|(at, frame)| (at, audience, frame.into()));
        self.values.extend(frames);
    }

    /// Pushes every value, round after round; `now` counts as the peers' activity.
    pub(super) async fn deliver(mut self, live: &Live, now: Micros) {
        self.values
            .sort_by_key(|(at, audience, _)| (*at, *audience));
        let mut in_round = vec![false; self.audiences.len()];
        let mut round = Vec::new();
        let values = std::mem::take(&mut self.values);
        for (_, audience, frame) in values {
            if in_round[audience] {
                self.finish_round(live, &mut round, &mut in_round).await;
            }
            in_round[audience] = true;
            round.push(audience);
            let (key, peers) = &self.audiences[audience];
            for peer in peers {
                peer.outbox.update(|o| o.price(*key, frame.clone()));
                peer.touch(now);
            }
        }
    }

    async fn finish_round(&self, live: &Live, round: &mut Vec<usize>, in_round: &mut [bool]) {
        let deadline = Instant::now() + ROUND_WAIT;
        loop {
            let drained = live.writers_drained();
            tokio::pin!(drained);
            drained.as_mut().enable();
            let waiting = round
                .iter()
                .flat_map(|&a| self.audiences[a].1.iter())
                .any(|peer| peer.catching_up());
            let left = deadline.saturating_duration_since(Instant::now());
            if !waiting || left.is_zero() {
                break;
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(5)), drained).await;
        }
        for audience in round.drain(..) {
            in_round[audience] = false;
        }
    }
}
