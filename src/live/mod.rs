//! The live feed client: one WebSocket session that authenticates with a
//! fresh token, keeps the connection alive, reconnects on any drop,
//! resubscribes, backfills what a disconnection hid from the intraday
//! endpoints, and delivers every published value once, in order per tenor,
//! through a bounded queue that conflates for a slow consumer.
//!
//! Python-agnostic: the binding wraps [`LiveFeed`].

mod backoff;
mod batch;
mod book;
mod config;
mod connection;
mod event;
mod feed;
mod inflight;
mod keepalive;
mod merge;
mod queue;
mod registry;
mod session;
mod shared;
mod sources;
mod stats;
mod tick;
mod wire;

#[cfg(test)]
mod e2e_tests;
#[cfg(test)]
mod test_server;

pub use batch::{live_schema, ticks_to_batch};
pub use config::{LiveConfig, SOCKET_PATH};
pub use event::{EventHandler, FeedEvent};
pub use feed::LiveFeed;
pub use registry::checked_subscription;
pub use sources::{Backfiller, TokenSource};
pub use stats::FeedStats;
pub use tick::{Tick, TickSource};
