//! Bulk download of historical snapshots as Parquet: jobs, checked paths,
//! resumable downloads, and reading the dataset back.

pub mod args;
pub mod download;
pub mod job;
pub mod options;
mod part;
pub mod partition;
pub mod read;
pub mod read_store;
pub mod run;
pub mod store_download;
#[cfg(test)]
pub(crate) mod test_service;
