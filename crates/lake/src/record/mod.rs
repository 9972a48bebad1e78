//! The tick recorder: the live feed captured into Hive-partitioned Parquet
//! (`date=YYYY-MM-DD/…`), locally or in an object store, each published
//! value exactly once across disconnections, restarts and crashes
//! ([`run`] says how), with [`read_ticks`](read::read_ticks) to read it back
//! and [`compact`](compact::compact) to merge closed days.

pub mod check;
pub mod checkpoint;
pub mod compact;
pub mod config;
pub mod file;
pub mod layout;
mod lease;
pub mod lock;
pub(crate) mod pending;
pub mod read;
pub mod run;
pub mod span;
pub mod status;
mod subscriptions;
#[cfg(test)]
pub(crate) mod test_support;

pub use compact::CompactedDay;
pub use config::{parse_period, RecordConfig};
pub use read::{read_ticks, TickSelection};
pub use run::record;
pub use status::RecordSummary;
