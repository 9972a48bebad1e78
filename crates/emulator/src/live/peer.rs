//! What the rest of the emulator knows of one open live connection: its
//! outbox, its subscriptions, when it last exchanged a message and since
//! when it has had no subscription (the two timers of the interface), and a
//! switch to end it abruptly.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use super::key::FeedKey;
use super::outbox::Outbox;
use domain::timestamp::Micros;

/// A subscription's identity: the curve's index in the world and a tenor name.
pub(crate) type KeyName = (usize, String);

/// `quiet_since` while the connection has a subscription.
const SUBSCRIBED: Micros = Micros::MAX;

pub(crate) struct Peer {
    pub id: u64,
    /// On the emulator's clock.
    pub opened_at: Micros,
    pub outbox: Outbox,
    /// Changed only under the registry's lock, so that it always agrees with
    /// the registry's list of subscribers.
    keys: Mutex<BTreeMap<KeyName, Arc<FeedKey>>>,
    keys_version: AtomicU64,
    last_activity: AtomicI64,
    quiet_since: AtomicI64,
    dropped: AtomicBool,
    drop_signal: Notify,
    /// The writer is in the middle of writing: if that lasts, the socket is
    /// full and the reader slow.
    writing: AtomicBool,
}

impl Peer {
    pub(crate) fn new(id: u64, now: Micros) -> Peer {
        Peer {
            id,
            opened_at: now,
            outbox: Outbox::default(),
            keys: Mutex::new(BTreeMap::new()),
            keys_version: AtomicU64::new(0),
            last_activity: AtomicI64::new(now),
            quiet_since: AtomicI64::new(now),
            dropped: AtomicBool::new(false),
            drop_signal: Notify::new(),
            writing: AtomicBool::new(false),
        }
    }

    /// A message went one way or the other at `now`.
    pub(crate) fn touch(&self, now: Micros) {
        self.last_activity.fetch_max(now, Ordering::Relaxed);
    }

    pub(crate) fn last_activity(&self) -> Micros {
        self.last_activity.load(Ordering::Relaxed)
    }

    /// Since when the connection has had no subscription; None while it has one.
    pub(crate) fn quiet_since(&self) -> Option<Micros> {
        let since = self.quiet_since.load(Ordering::SeqCst);
        (since != SUBSCRIBED).then_some(since)
    }

    /// Starts the no-subscription timer again from `now` (at authentication).
    pub(crate) fn restart_quiet_timer(&self, now: Micros) {
        if self.quiet_since().is_some() {
            self.quiet_since.store(now, Ordering::SeqCst);
        }
    }

    pub(crate) fn keys(&self) -> std::sync::MutexGuard<'_, BTreeMap<KeyName, Arc<FeedKey>>> {
        self.keys.lock().expect("peer keys lock")
    }

    /// Records a change of subscriptions made under the registry's lock.
    pub(crate) fn keys_changed(&self, now: Micros, has_keys: bool) {
        self.keys_version.fetch_add(1, Ordering::SeqCst);
        let quiet = if has_keys { SUBSCRIBED } else { now };
        let was_subscribed = self.quiet_since().is_none();
        if has_keys || was_subscribed {
            self.quiet_since.store(quiet, Ordering::SeqCst);
        }
    }

    pub(crate) fn keys_version(&self) -> u64 {
        self.keys_version.load(Ordering::SeqCst)
    }

    /// The subscribed keys, for the writer.
    pub(crate) fn key_list(&self) -> Vec<Arc<FeedKey>> {
        self.keys().values().cloned().collect()
    }

    pub(crate) fn set_writing(&self, writing: bool) {
        self.writing.store(writing, Ordering::SeqCst);
    }

    /// Whether the peer has values its writer has not taken yet while it is
    /// free to take them (a writer stuck writing to a slow reader is not).
    pub(crate) fn catching_up(&self) -> bool {
        !self.writing.load(Ordering::SeqCst) && !self.outbox.is_empty()
    }

    /// Ends the connection at once, with no close frame.
    pub(crate) fn drop_connection(&self) {
        self.dropped.store(true, Ordering::SeqCst);
        self.drop_signal.notify_one();
    }

    /// Resolves once [`Peer::drop_connection`] has been called.
    pub(crate) async fn dropped(&self) {
        while !self.dropped.load(Ordering::SeqCst) {
            self.drop_signal.notified().await;
        }
    }
}
