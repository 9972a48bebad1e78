//! The PyO3 binding layer: argument conversion, error mapping and Arrow export.
//! No logic of its own lives here.

pub(crate) mod arrow_out;
pub(crate) mod backfill;
pub(crate) mod bulk;
pub(crate) mod bulk_result;
pub(crate) mod cache;
pub(crate) mod call;
pub(crate) mod client;
pub(crate) mod closing;
pub(crate) mod curves;
pub(crate) mod emulator;
pub(crate) mod errors;
pub(crate) mod html;
pub(crate) mod live;
pub(crate) mod place_arg;
#[cfg(feature = "probe")]
pub(crate) mod probe;
pub(crate) mod record;
pub(crate) mod results;
pub(crate) mod runtime;
pub(crate) mod tables;
pub(crate) mod tenor;
