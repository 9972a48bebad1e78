//! The market curve service's history: its REST endpoints ([`rest`]: auth,
//! retries, paging, windows), the history cache over them ([`cache`]), bulk
//! Parquet exports ([`bulk`]), and the client a caller uses
//! ([`RestClient`], in [`client`]), which picks between the service and the
//! cache and so sits above both.
//!
//! On the places crate (network, storage, errors); knows nothing of the
//! live feed, of Python or of the emulator.

pub mod bulk;
pub mod cache;
pub mod client;
pub mod rest;

pub use client::RestClient;
