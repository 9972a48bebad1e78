//! The client of the market curve service: the way to it ([`net`]), its REST
//! endpoints ([`rest`]), bulk Parquet exports ([`bulk`]) and the live feed
//! ([`live`]). Built on the domain crate; knows nothing of Python or of the
//! emulator. The protocol it speaks is summarised in `docs/protocol.md` at the
//! root of the repository, which comments here cite by section.
//!
//! `net` and `rest` share [`ClientError`] and [`Secret`], which live here at
//! the root so that neither module imports the other's types.

pub mod backfill;
pub mod bulk;
pub mod cache;
pub(crate) mod closing;
pub(crate) mod digest;
pub(crate) mod error;
pub(crate) mod give_back;
pub mod live;
pub mod net;
pub(crate) mod one_thread;
pub mod record;
pub mod rest;
pub(crate) mod secret;
pub mod storage;

// Property checks shared by the fuzz targets in fuzz/ and their `cargo test`
// smoke: test code, built only for them (feature `fuzzing`).
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
// A reader of the live feed for benchmarks, that measures what any client can
// reach; not part of the client, built only for them (feature `probe`).
#[cfg(any(test, feature = "probe"))]
#[doc(hidden)]
pub mod probe;

pub use closing::Closing;
pub use error::{ClientError, ProviderCause};
pub use secret::Secret;
