//! The live feed client: one WebSocket session that authenticates with a
//! fresh token, keeps the connection alive, reconnects on any drop,
//! resubscribes, backfills what a disconnection hid from the intraday
//! endpoints, and delivers every published value once, in order per tenor,
//! through a bounded queue that conflates for a slow consumer.
//!
//! Python-agnostic: the binding wraps [`LiveFeed`].

mod backoff;
mod book;
mod config;
mod event;
mod merge;
mod queue;
mod registry;
mod stats;
mod tick;

pub use config::{LiveConfig, SOCKET_PATH};
pub use event::{EventHandler, FeedEvent};
pub use registry::checked_subscription;
pub use stats::FeedStats;
pub use tick::{Tick, TickSource};
