//! Object storage: where a bulk export can live besides a local folder
//! (`s3://`, `gs://`, `az://`, `abfs://`), through the Arrow project's
//! `object_store`. Credentials and endpoints come from each cloud's
//! standard environment variables (`AWS_ACCESS_KEY_ID`, `AWS_ENDPOINT_URL`,
//! `AWS_ALLOW_HTTP`, …), or from `storage_options`, whose keys are
//! object_store's (the convention of polars, deltalake and obstore).
//!
//! - `location`: a place given as text, and the store's errors in the
//!   design's terms;
//! - `upload`: one object written whole or not at all (a multipart upload
//!   completed only once its size is checked), for downloads into a store;
//! - `parts`: the multipart upload under it, aborted even when its task is
//!   cancelled;
//! - `folder`: a local folder to write into or read from, checked;
//! - `footer`: the rows of a Parquet object from its footer alone;
//! - `noted`: Parquet with a note in its footer, as the package writes its
//!   own files;
//! - `retry`: the bounds of a store's retries, for every store built here.

pub mod folder;
pub mod footer;
mod location;
pub mod noted;
mod parts;
mod retry;
pub mod upload;

pub use location::{describe, store_error, Location, Place};
