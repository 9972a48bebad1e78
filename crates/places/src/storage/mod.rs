//! The storage layer: where the package writes and reads files, a local
//! folder or object storage (`s3://`, `gs://`, `az://`, `abfs://`, through
//! the Arrow project's `object_store`). Credentials and endpoints come from each cloud's
//! standard environment variables (`AWS_ACCESS_KEY_ID`, `AWS_ENDPOINT_URL`,
//! `AWS_ALLOW_HTTP`, …), or from `storage_options`, whose keys are
//! object_store's (the convention of polars, deltalake and obstore).
//!
//! - `place`: where data is written or read, a folder or a store prefix,
//!   parsed from a path or URL; `place_files` reads and writes its files;
//! - `place_url`: a place's URL refused if it carries credentials, and
//!   shown without them;
//! - `location`: a prefix in an object store (with the one key builder),
//!   and the store's errors in the design's terms;
//! - `whole_file`: the one way a local file is written, whole, private, under
//!   the one temporary-name scheme, as durably as each use says;
//! - `upload`: one object written whole or not at all (a multipart upload
//!   completed only once its size is checked), for downloads into a store;
//! - `parts`: the multipart upload under it, aborted even when its task is
//!   cancelled;
//! - `folder`: a local folder to write into or read from, checked;
//! - `footer`: the rows of a Parquet object from its footer alone;
//! - `noted`: Parquet with a note in its footer, as the package writes its
//!   own files;
//! - `retry`: the bounds of a store's retries, for every store built here;
//! - `secret_options`: which storage options are secrets, by any alias;
//! - `survey`: a place's names with the links and unreadable folders a
//!   listing met (a lake's check, a backfill's plan).

pub mod folder;
pub mod footer;
mod location;
pub mod noted;
mod parts;
mod place;
mod place_files;
mod place_url;
mod retry;
mod secret_options;
pub mod survey;
#[cfg(test)]
pub(crate) mod test_places;
pub mod upload;
pub mod whole_file;

pub use crate::place_error::{Operation, PlaceError, Writer};
pub use location::{describe, store_error, Location};
pub use place::Place;
pub use place_url::without_credentials;
pub use secret_options::secret_options;
pub use survey::Survey;
