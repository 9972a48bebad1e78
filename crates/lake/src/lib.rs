//! The lake of ticks, the top layer of the market curve client: the
//! recorder that writes the live feed into day folders of Parquet files
//! ([`record`], with `read_ticks` and the lake's check), the backfill that
//! fills the same lake from the history endpoints ([`backfill`]), and the
//! replay that delivers a lake's or the service's history through the live
//! feed's own handle ([`replay`]).
//!
//! On the live feed, the history crate and the places crate; knows nothing
//! of Python or of the emulator.

pub mod backfill;
pub mod record;
pub mod replay;
