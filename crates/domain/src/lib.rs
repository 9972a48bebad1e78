//! Pure types, no I/O: tenors, timestamps, records of the interface and their
//! Arrow form. The interface is summarised in `docs/protocol.md` at the root of
//! the repository, which comments here cite by section.
//!
//! The analytics on these tables are a crate of their own
//! (`marketcurves-analytics`, on this one), so that editing them rebuilds
//! neither the client nor the emulator.

pub mod arrow;
pub mod decode;
mod lenient;
pub mod live;
pub mod month;
pub mod price_page;
pub mod records;
pub mod redact;
pub mod rows;
pub mod tenor;
pub mod tenor_range;
pub mod timestamp;
pub mod vocabulary;
