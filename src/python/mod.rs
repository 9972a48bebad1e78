//! The PyO3 binding layer: argument conversion, error mapping and Arrow export.
//! No logic of its own lives here.

pub mod bulk;
pub mod bulk_result;
pub mod client;
pub mod closing;
pub mod emulator;
pub mod errors;
pub mod live;
pub mod probe;
pub mod runtime;
pub mod tables;
pub mod tenor;
