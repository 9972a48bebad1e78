//! Replay: recorded or historical values delivered through the live feed's
//! own handle ([`start`], through `live::LiveFeed::start_driven`),
//! so that code written against the live feed runs unchanged on history.
//!
//! A replay session takes the place of the live session: it answers the
//! handle's subscribe and unsubscribe requests at the replay's current
//! time (a snapshot per tenor: its last value at or before that time), and
//! pushes every later value up to the end into the same delivery queue, in
//! time order across curves and tenors (ties by curve, then tenor), read a
//! UTC day at a time from its [`source`]: a lake, or the service's
//! historical intraday endpoint. At full speed it waits for the consumer
//! and skips nothing; paced, it delivers on a virtual clock and a slow
//! consumer gets what the live feed gives, the newest value per tenor.

pub(crate) mod clock;
pub mod config;
pub mod lake;
pub mod service;
pub(crate) mod session;
pub mod source;
mod start;
pub mod values;

pub use config::ReplayConfig;
pub use lake::LakeSource;
pub use service::ServiceSource;
pub use source::ReplaySource;
pub use start::start;
pub use values::Values;
