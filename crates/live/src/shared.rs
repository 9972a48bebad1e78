//! What the feed handle and the session task share: the delivery queue, the
//! names its rows refer to, the curves its batches name, the counters, the
//! subscription set, and the requests the handle sends.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

use super::curves::FeedCurves;
use super::inflight::Reply;
use super::names::Names;
use super::queue::DeliveryQueue;
use super::registry::SubscriptionSet;
use super::stats::{Counters, FeedStats};
use domain::live::Subscription;
use places::{ClientError, Closing};

/// What the handle asks of the session. The handle has already recorded the
/// change in the subscription set; the session tells the service.
pub enum Request {
    Subscribe(Subscription, Reply),
    Unsubscribe(Subscription, Reply),
}

/// What stops a feed: its own `close()`, or the close of the client it was
/// started from. `feed` is a child of `client`, so the session waits on
/// `feed` alone; `client` tells which of the two it was.
#[derive(Clone)]
pub struct Stopping {
    pub feed: Closing,
    pub client: Closing,
}

impl Stopping {
    pub fn of_client(client: &Closing) -> Stopping {
        Stopping {
            feed: client.child(),
            client: client.clone(),
        }
    }
}

pub struct Shared {
    pub queue: DeliveryQueue,
    /// Written by the session's book, read by the reader.
    pub names: Arc<Names>,
    /// The curves the batches name: written by the handle's subscriptions.
    pub curves: FeedCurves,
    pub counters: Counters,
    registry: Mutex<SubscriptionSet>,
    /// Closed by the caller, or ended by a fatal error: nothing more will come.
    pub closed: AtomicBool,
    /// The time of the last update handed to the consumer (`i64::MIN`:
    /// none): a replay's time at full speed.
    pub handed: Arc<AtomicI64>,
    /// Values the session conflated while holding them back for a backfill.
    pub held_conflated: AtomicU64,
    /// Why the last connection attempt failed, for a caller left waiting.
    last_failure: Mutex<Option<String>>,
    /// The fatal error that ended the session, for calls made after it.
    stopped_by: Mutex<Option<ClientError>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing that could panic runs under these locks; a poisoned one is intact.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    pub fn new(queue_size: usize) -> Shared {
        Shared {
            queue: DeliveryQueue::new(queue_size),
            names: Arc::default(),
            curves: FeedCurves::default(),
            counters: Counters::new(),
            registry: Mutex::new(SubscriptionSet::default()),
            closed: AtomicBool::new(false),
            handed: Arc::new(AtomicI64::new(i64::MIN)),
            held_conflated: AtomicU64::new(0),
            last_failure: Mutex::new(None),
            stopped_by: Mutex::new(None),
        }
    }

    pub fn registry(&self) -> MutexGuard<'_, SubscriptionSet> {
        lock(&self.registry)
    }

    pub fn subscriptions(&self) -> Vec<Subscription> {
        self.registry().list()
    }

    pub fn set_last_failure(&self, reason: Option<String>) {
        *lock(&self.last_failure) = reason;
    }

    pub fn last_failure(&self) -> Option<String> {
        lock(&self.last_failure).clone()
    }

    pub fn set_stopped_by(&self, fatal: &ClientError) {
        *lock(&self.stopped_by) = Some(copy_of(fatal));
    }

    /// The error that ended the session (a copy for each caller), if one did.
    pub fn stopped_by(&self) -> Option<ClientError> {
        lock(&self.stopped_by).as_ref().map(copy_of)
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Relaxed)
    }

    pub fn stats(&self) -> FeedStats {
        let mut stats = self.counters.snapshot();
        stats.conflated = self.queue.conflated() + self.held_conflated.load(Relaxed);
        stats.queued = self.queue.len();
        stats.subscriptions = self.registry().len();
        stats
    }
}

/// Errors are not `Clone`: each caller gets one of the same kind. A failure
/// of the connection stays a live feed error; anything else that ends the
/// feed is a refused token.
fn copy_of(fatal: &ClientError) -> ClientError {
    match fatal {
        ClientError::Live {
            code,
            message,
            advice,
            ..
        } => ClientError::Live {
            code: code.clone(),
            message: message.clone(),
            subscription: None,
            advice: *advice,
        },
        ClientError::ClientClosed => ClientError::ClientClosed,
        ClientError::TokenProvider { message, cause } => ClientError::TokenProvider {
            message: message.clone(),
            cause: std::sync::Arc::clone(cause),
        },
        ClientError::Auth(failure) => ClientError::Auth(failure.clone()),
        other => ClientError::auth(places::AuthReason::FeedEnded, None, other.to_string()),
    }
}

/// What a request to a feed that has ended, with no error of its own, is
/// refused with: a live feed error (the end of a read is no error, but a
/// subscription the feed can no longer make is).
pub(crate) fn feed_closed() -> ClientError {
    ClientError::Live {
        code: String::new(),
        message: "the feed is closed (by close(), by a fatal error, or for a replay at its end)"
            .into(),
        subscription: None,
        advice: None,
    }
}
