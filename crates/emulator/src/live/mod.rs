//! The live feed of the emulator: the WebSocket endpoint
//! `/v2/customer/socket/websocket` and everything behind it, following the
//! interface's "Live connection" table, Events and Errors to the letter.
//!
//! - [`command`]: strict reading of client commands;
//! - [`session`]: one connection's state machine;
//! - [`outbox`]: what a connection has to write, prices conflated per tenor;
//! - [`connection`]: the reader, writer and timers of one connection;
//! - [`registry`]: who is subscribed to what, and subscription snapshots;
//! - [`publisher`], [`delivery`], [`punctual`]: pushing the world's new
//!   values as the clock passes them, on time;
//! - [`timers`], [`restart`]: the idle drop, the no-subscription close and
//!   the weekly restart, all on the emulator's clock;
//! - [`firehose`], [`frame`], [`key`]: synthetic values for benchmarks;
//! - [`faults`]: the live feed's fault switches.
//!
//! The feed works on the parts of the emulator's state it needs ([`Parts`]),
//! never on the whole state, which holds it and so sits above it.

pub(crate) mod command;
mod connection;
mod delivery;
pub(crate) mod faults;
mod firehose;
pub(crate) mod frame;
pub(crate) mod key;
pub(crate) mod outbox;
pub(crate) mod peer;
mod publisher;
mod punctual;
pub(crate) mod registry;
pub(crate) mod restart;
pub(crate) mod session;
pub(crate) mod tenors;
pub(crate) mod timers;

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::futures::Notified;
use tokio::sync::Notify;

use crate::accounts::Accounts;
use crate::clock::Clock;
use crate::world::CurrentWorld;
pub use connection::serve;
use domain::timestamp::Micros;
use faults::LiveFaults;
use peer::Peer;
pub use publisher::run as run_publisher;
use registry::Registry;
use restart::{RESTART_CODE, RESTART_REASON};

/// The path of the live endpoint.
pub const LIVE_PATH: &str = "/v2/customer/socket/websocket";

/// What a connection and the publisher work with, lent by the emulator's
/// state: the feed's own part, the clock, the accounts (tokens and
/// licences) and the world.
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub live: &'a Live,
    pub clock: &'a Clock,
    pub accounts: &'a Accounts,
    pub world: &'a CurrentWorld,
}

/// The live feed's shared state: open connections, subscriptions, faults.
pub struct Live {
    registry: Mutex<Registry>,
    pub faults: LiveFaults,
    next_peer: AtomicU64,
    published_through: AtomicI64,
    publisher_wake: Notify,
    /// Writers signal here each time they have written what they had.
    writers_drained: Notify,
    shut_down: AtomicBool,
    /// Counts of `drop_connections` and restarts, so that a connection whose
    /// handshake was under way when one happened suffers it too.
    drops: AtomicU64,
    restarts: AtomicU64,
}

/// The drops and restarts a connection has already seen, taken when its
/// handshake arrives.
#[derive(Clone, Copy, Debug)]
pub struct Generations {
    drops: u64,
    restarts: u64,
}

impl Live {
    pub fn new(now: Micros) -> Live {
        Live {
            registry: Mutex::new(Registry::default()),
            faults: LiveFaults::default(),
            next_peer: AtomicU64::new(1),
            published_through: AtomicI64::new(now),
            publisher_wake: Notify::new(),
            writers_drained: Notify::new(),
            shut_down: AtomicBool::new(false),
            drops: AtomicU64::new(0),
            restarts: AtomicU64::new(0),
        }
    }

    /// Taken at the handshake and given to [`serve`].
    pub fn generations(&self) -> Generations {
        Generations {
            drops: self.drops.load(Ordering::SeqCst),
            restarts: self.restarts.load(Ordering::SeqCst),
        }
    }

    /// How many live connections are open.
    pub fn connections(&self) -> usize {
        self.with_registry(|registry| registry.peers.len())
    }

    /// Ends every live connection abruptly: no close frame (the client sees 1006).
    pub fn drop_connections(&self) {
        // Counted first: a connection registering meanwhile sees the count.
        self.drops.fetch_add(1, Ordering::SeqCst);
        for peer in self.peers() {
            peer.drop_connection();
        }
    }

    /// Disconnects every client as the weekly restart does: a close frame
    /// with code 1012, "service restart".
    pub fn restart_feed(&self) {
        self.restarts.fetch_add(1, Ordering::SeqCst);
        self.restart_opened_before(Micros::MAX);
    }

    /// Turns the firehose on or off (see [`firehose`](self::firehose)).
    pub fn set_firehose(&self, enabled: bool) {
        self.faults.set_firehose(enabled);
        for peer in self.peers() {
            // Wakes the writer, which looks at the switch.
            peer.outbox.update(|_| ());
        }
        self.wake_publisher();
    }

    /// Back to a well-behaved feed: every live fault off.
    pub fn clear_faults(&self) {
        self.faults.clear();
        self.set_firehose(false);
    }

    /// Drops every connection and refuses new ones: the server is stopping.
    pub fn shutdown(&self) {
        self.shut_down.store(true, Ordering::SeqCst);
        self.drop_connections();
    }

    /// The emulated instant up to which the publisher has pushed values.
    pub fn published_through(&self) -> Micros {
        self.published_through.load(Ordering::SeqCst)
    }

    fn set_published_through(&self, at: Micros) {
        self.published_through.store(at, Ordering::SeqCst);
    }

    fn restart_opened_before(&self, restart: Micros) {
        for peer in self.peers() {
            if peer.opened_at <= restart {
                peer.outbox
                    .update(|o| o.close(RESTART_CODE, RESTART_REASON));
            }
        }
    }

    /// Registers a new connection; None once the server is stopping. A drop
    /// or restart since its handshake (`seen`) applies to it at once.
    fn open(&self, now: Micros, seen: Generations) -> Option<Arc<Peer>> {
        if self.shut_down.load(Ordering::SeqCst) {
            return None;
        }
        let peer = Arc::new(Peer::new(
            self.next_peer.fetch_add(1, Ordering::SeqCst),
            now,
        ));
        self.with_registry(|registry| registry.add_peer(Arc::clone(&peer)));
        if self.drops.load(Ordering::SeqCst) != seen.drops {
            peer.drop_connection();
        } else if self.restarts.load(Ordering::SeqCst) != seen.restarts {
            peer.outbox
                .update(|o| o.close(RESTART_CODE, RESTART_REASON));
        }
        self.wake_publisher();
        Some(peer)
    }

    fn close_peer(&self, peer: &Peer, now: Micros) {
        self.with_registry(|registry| registry.remove_peer(peer, now));
    }

    fn peers(&self) -> Vec<Arc<Peer>> {
        self.with_registry(|registry| registry.peers.values().cloned().collect())
    }

    fn with_registry<R>(&self, f: impl FnOnce(&mut Registry) -> R) -> R {
        f(&mut self.registry.lock().expect("live registry lock"))
    }

    fn wake_publisher(&self) {
        self.publisher_wake.notify_one();
    }

    fn publisher_woken(&self) -> Notified<'_> {
        self.publisher_wake.notified()
    }

    fn drained(&self) {
        self.writers_drained.notify_waiters();
    }

    fn writers_drained(&self) -> Notified<'_> {
        self.writers_drained.notified()
    }
}

#[cfg(test)]
mod socket_tests;
