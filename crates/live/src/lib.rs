//! The live feed client: one WebSocket session that authenticates with a
//! fresh token, keeps the connection alive, reconnects on any drop,
//! resubscribes, backfills what a disconnection hid from the intraday
//! endpoints, and delivers every published value once, in order per tenor,
//! through a bounded queue that conflates for a slow consumer.
//!
//! Python-agnostic: the binding wraps [`LiveFeed`].
//!
//! What the consumer can rely on:
//! - never repeated: per (curve, tenor) a value is delivered only if its time,
//!   truncated to milliseconds, is later than the last one delivered (so a
//!   resubscription's snapshot of a value already delivered is dropped, and
//!   two values within one millisecond count as one);
//! - in order per tenor, backfilled values before newer live ones;
//! - never lost across reconnects, as far as the service allows: after a
//!   reconnect each tenor delivered before is backfilled from the intraday
//!   endpoints from its last delivered time, fetched once the resubscription
//!   is confirmed so that the live values cover what comes after. What
//!   cannot be recovered is reported: a failed backfill (an `Error` event,
//!   `backfill_failures`), values conflated for a slow consumer (`Conflated`
//!   events, `conflated`), and the service's own skipping of intermediate
//!   values for a slow reader (docs/protocol.md#live-feed). A tenor never
//!   delivered before the outage gets only its snapshot;
//! - never hung: every read wakes on ticks, on errors, on close and if the
//!   session ends for any reason; every network step has a time limit.

mod backoff;
mod batch;
mod book;
mod config;
mod connection;
mod curves;
pub mod driven;
mod event;
mod feed;
mod inflight;
mod keepalive;
mod listed;
mod merge;
mod names;
mod queue;
mod reader;
mod registry;
mod session;
mod shared;
mod sources;
mod stats;
mod tick;
// Visible to the crate so that `fuzzing` can check the fast reader against the domain's.
pub(crate) mod wire;

// Property checks shared by the fuzz targets in fuzz/ and their `cargo test`
// smoke, of every parser of what the service sends (the live feed's, and the
// history crate's below it): test code, built only for them (feature
// `fuzzing`).
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
// A reader of the live feed for benchmarks, that measures what any client can
// reach; not part of the client, built only for them (feature `probe`).
#[cfg(any(test, feature = "probe"))]
#[doc(hidden)]
pub mod probe;

#[cfg(test)]
mod e2e_tests;
#[cfg(test)]
mod test_server;

pub use batch::{live_schema, ticks_to_batch};
pub use config::{LiveConfig, ResumePoint, SOCKET_PATH};
pub use event::{FeedEvent, EVENTS_KEPT};
pub use feed::LiveFeed;
pub use listed::{check_listed, Remedy, SUBSCRIBE_ANYWAY};
pub use reader::{CHUNK, DEFAULT_BATCH_ROWS, DEFAULT_BATCH_TIMEOUT, MAX_BATCH_ROWS};
pub use registry::checked_subscription;
pub use sources::{Backfiller, GapSpan, PageHints, TokenSource};
pub use stats::FeedStats;
pub use tick::{Tick, TickSource};
