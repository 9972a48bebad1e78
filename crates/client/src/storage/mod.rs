//! Object storage: where a bulk export can live besides a local folder
//! (`s3://`, `gs://`, `az://`, `abfs://`), through the Arrow project's
//! `object_store`. Credentials and endpoints come from each cloud's
//! standard environment variables (`AWS_ACCESS_KEY_ID`, `AWS_ENDPOINT_URL`,
//! `AWS_ALLOW_HTTP`, …), or from `storage_options`, whose keys are
//! object_store's (the convention of polars, deltalake and obstore).

mod location;

pub use location::{store_error, Location, Place};
