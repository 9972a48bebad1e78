//! Bulk download of historical snapshots as Parquet: jobs, checked paths,
//! resumable downloads, and reading the dataset back.

pub mod download;
pub mod job;
pub mod partition;
pub mod read;
pub mod run;
