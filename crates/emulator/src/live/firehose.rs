//! The firehose (a benchmark fault): while it runs, each connection's writer
//! makes new synthetic values of its subscribed tenors as fast as its socket
//! takes them, ignoring the world's schedule.
//!
//! Making them in the writer, on demand, is the limit of the feed's rule for
//! slow readers (only the latest value per tenor is carried): a value is made
//! only when it can be written, so nothing piles up for a slow reader, and a
//! fast one is never held back by a hand-over between tasks. The values come
//! from one series per tenor shared by all connections, each strictly later
//! than the last; they are not in the intraday history.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::SinkExt;

use super::frame::FrameEncoder;
use super::key::FeedKey;
use super::peer::Peer;
use crate::clock::Clock;

/// Synthetic frames fed between two looks at the outbox and one flush.
const BATCH: usize = 256;

#[derive(Default)]
pub(super) struct Firehose {
    encoder: FrameEncoder,
    keys: Vec<Arc<FeedKey>>,
    /// The subscriptions `keys` was taken from; None before the first look.
    version: Option<u64>,
    next: usize,
}

impl Firehose {
    /// Feeds a batch of synthetic values of the peer's tenors; false if it
    /// has none. Err if the socket is gone.
    pub(super) async fn feed_batch(
        &mut self,
        sink: &mut SplitSink<WebSocket, Message>,
        clock: &Clock,
        peer: &Peer,
    ) -> Result<bool, ()> {
        let version = peer.keys_version();
        if self.version != Some(version) {
            self.keys = peer.key_list();
            self.keys.retain(|key| key.tenor.is_some());
            self.version = Some(version);
        }
        if self.keys.is_empty() {
            return Ok(false);
        }
        let now = clock.now();
        for _ in 0..BATCH {
            let key = &self.keys[self.next % self.keys.len()];
            self.next = self.next.wrapping_add(1);
            let frame = key.next_synthetic(now, &mut self.encoder);
            sink.feed(Message::Text(frame)).await.map_err(|_| ())?;
        }
        Ok(true)
    }
}
