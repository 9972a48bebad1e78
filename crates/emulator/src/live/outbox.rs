//! What one connection has still to write. Replies (auth results, pongs,
//! errors) are kept in order; prices are conflated: only the latest value per
//! (curve, tenor) not yet written is kept (docs/protocol.md#live-feed), so memory
//! stays bounded whatever the reader does. A price keeps the place in the
//! queue its key first took, so prices and replies go out in the order they
//! were made, a newer value overtaking only older values of its own tenor.
//! Prices are taken only for keys the connection is subscribed to, so a
//! value published as the connection unsubscribes is not written after it.

use std::collections::hash_map::Entry as MapEntry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::Notify;

/// Replies a reader may leave unread before the connection is dropped: a
/// client that sends commands without ever reading is not kept up forever.
pub(crate) const MAX_PENDING_REPLIES: usize = 10_000;

/// One thing for the writer to do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outgoing<T> {
    Frame(T),
    /// Send a close frame; nothing is sent after it.
    Close {
        code: u16,
        reason: &'static str,
    },
}

#[derive(Debug)]
enum Entry<T> {
    Reply(T),
    /// The latest value of this key, if it still has one when written.
    Price(u64),
    Close {
        code: u16,
        reason: &'static str,
    },
}

/// The pending frames of one connection.
#[derive(Debug)]
pub(crate) struct Conflating<T> {
    queue: VecDeque<Entry<T>>,
    /// A key is here exactly while it has an entry in `queue`; `None` once
    /// its value was withdrawn (an unsubscribe).
    latest: HashMap<u64, Option<T>>,
    subscribed: HashSet<u64>,
    replies: usize,
    closing: bool,
}

impl<T> Default for Conflating<T> {
    fn default() -> Self {
        Conflating {
            queue: VecDeque::new(),
            latest: HashMap::new(),
            subscribed: HashSet::new(),
            replies: 0,
            closing: false,
        }
    }
}

impl<T> Conflating<T> {
    /// Queues a reply; false if too many are unread (or the outbox is closing).
    pub(crate) fn reply(&mut self, frame: T) -> bool {
        if self.closing || self.replies >= MAX_PENDING_REPLIES {
            return false;
        }
        self.replies += 1;
        self.queue.push_back(Entry::Reply(frame));
        true
    }

    /// From now on, values of `key` are taken.
    pub(crate) fn subscribe(&mut self, key: u64) {
        self.subscribed.insert(key);
    }

    /// Queues the value of `key`, replacing a value of the same key not yet
    /// written; ignored unless the connection is subscribed to `key`.
    pub(crate) fn price(&mut self, key: u64, frame: T) {
        if self.closing || !self.subscribed.contains(&key) {
            return;
        }
        match self.latest.entry(key) {
            MapEntry::Occupied(mut pending) => {
                pending.insert(Some(frame));
            }
            MapEntry::Vacant(vacant) => {
                vacant.insert(Some(frame));
                self.queue.push_back(Entry::Price(key));
            }
        }
    }

    /// Takes no more values of `key`, and withdraws the unwritten one, if any.
    pub(crate) fn unsubscribe(&mut self, key: u64) {
        self.subscribed.remove(&key);
        if let Some(pending) = self.latest.get_mut(&key) {
            *pending = None;
        }
    }

    /// Queues a close frame; whatever comes after it is dropped.
    pub(crate) fn close(&mut self, code: u16, reason: &'static str) {
        if !self.closing {
            self.closing = true;
            self.queue.push_back(Entry::Close { code, reason });
        }
    }

    pub(crate) fn is_closing(&self) -> bool {
        self.closing
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Moves everything pending, in order, to `out`.
    pub(crate) fn drain_into(&mut self, out: &mut Vec<Outgoing<T>>) {
        self.replies = 0;
        for entry in self.queue.drain(..) {
            match entry {
                Entry::Reply(frame) => out.push(Outgoing::Frame(frame)),
                Entry::Close { code, reason } => out.push(Outgoing::Close { code, reason }),
                Entry::Price(key) => {
                    if let Some(Some(frame)) = self.latest.remove(&key) {
                        out.push(Outgoing::Frame(frame));
                    }
                }
            }
        }
    }
}

/// A connection's pending frames, shared by whoever produces them and the
/// connection's writer, which is woken when there is something to write.
#[derive(Default)]
pub(crate) struct Outbox {
    pending: Mutex<Conflating<Utf8Bytes>>,
    ready: Notify,
}

impl Outbox {
    /// Runs `change` on the pending frames and wakes the writer.
    pub(crate) fn update<R>(&self, change: impl FnOnce(&mut Conflating<Utf8Bytes>) -> R) -> R {
        let result = change(&mut self.pending.lock().expect("outbox lock"));
        self.ready.notify_one();
        result
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pending.lock().expect("outbox lock").is_empty()
    }

    /// Moves what is pending to `out`, without waiting.
    pub(crate) fn drain_into(&self, out: &mut Vec<Outgoing<Utf8Bytes>>) {
        self.pending.lock().expect("outbox lock").drain_into(out);
    }

    /// Waits until something may have been queued since the last drain.
    pub(crate) async fn wait(&self) {
        self.ready.notified().await;
    }
}

#[cfg(test)]
#[path = "outbox_tests.rs"]
mod tests;
