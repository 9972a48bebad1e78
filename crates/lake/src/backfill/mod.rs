//! The historical side of a tick lake: intraday values fetched from the
//! historical endpoint (30-day windows per curve and tenor, page by page)
//! and written into the recorder's layout (`record::layout`), so that
//! `read_ticks`, the recorder and any Parquet engine read recorded and
//! backfilled values as one lake.
//!
//! The work is planned once ([`plan`]) into tasks, one curve over one
//! window; each task ([`task`]) runs anywhere a client can reach the
//! service (here, all at once, [`run`]; or on a Dask worker, from Python)
//! and writes one file per curve and day. A file's note says which tenors'
//! days it holds complete; a day that can still change is never marked so.
//! A plan reads those notes ([`held`]), so a run killed at any point and
//! run again fetches only what is missing, and a run over a complete range
//! sends no request at all.

pub mod held;
pub mod plan;
pub(crate) mod rows;
pub mod run;
pub mod task;

pub use plan::{plan, BackfillRequest, BackfillTask, Plan};
pub use run::{run_all, BackfillSummary};
pub use task::{run_task, TaskOutcome};
