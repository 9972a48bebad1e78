//! Curve analytics on price tables: rolling contracts and their roll log
//! (back-adjusted or not, in a calendar's business days), time spreads,
//! cracks, unit conversion, the date-by-tenor matrix, the curve as of given
//! times, and daily forward curves built from the contracts with their
//! residuals.
//!
//! Each function takes a [`Table`](domain::arrow::Table) of the design's
//! schema (settlements keyed by `date`, other prices by `generated_on`) and
//! returns a new one. Nothing here does I/O; bad input is a [`CurveError`],
//! which the bindings raise as `InvalidRequest`.
//!
//! A crate of its own on the domain alone, apart from the client and the
//! emulator, so that an edit here rebuilds only this crate and the bindings.

mod adjust;
mod as_of;
mod banded;
mod build;
mod build_notes;
mod business;
mod crack;
mod curve_error;
mod delivery;
mod dense;
mod flat;
mod grid;
mod grouping;
mod input;
mod matrix;
mod name_key;
mod named;
mod output;
mod panel;
mod residuals;
mod rolling;
mod rows;
mod smooth;
mod spread;
mod units;
mod weights;

#[cfg(test)]
mod test_tables;

pub use adjust::Adjust;
pub use as_of::as_of;
pub use build::{build, BuildSpec, Method};
pub use build_notes::{DROPPED_TENORS, PRICE_FROM_TEXT, UNDATED_ROWS};
pub use business::{Calendar, Holidays};
pub use crack::crack;
pub use curve_error::{CurveError, Term};
pub use grid::At;
pub use matrix::matrix;
pub use residuals::residuals;
pub use rolling::{roll_log, rolling, RollSpec};
pub use spread::{spread, Leg};
pub use units::{convert, Factor, Factors, Product, Unit};
pub use weights::Weights;
