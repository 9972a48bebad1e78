//! The cache's files: Parquet with a note in the footer saying what the
//! file holds (`storage::noted`), written whole (`files`). A file without
//! its note is not one of ours, and is not trusted.

use std::io;
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::files::{Files, Put, Written};
use places::storage::noted::{note_in, write_noted};

/// Writes `batches` of `schema` to `path`, with `note` under `key` in the
/// footer, whole (`files`: a file's rows are read back only if its footer
/// and note say they are whole).
pub(super) fn write(
    files: &Files,
    path: &Path,
    put: Put,
    (schema, batches): (SchemaRef, &[RecordBatch]),
    key: &str,
    note: &impl Serialize,
) -> io::Result<Written> {
    files.write(path, put, |out| {
        write_noted(out, schema, batches, key, note).map_err(io::Error::other)
    })
}

/// A reader of a file's bytes and the note under `key` in its footer; Err
/// with the reason if the file is not whole or has no such note.
pub(super) fn open<N: DeserializeOwned>(
    file: Bytes,
    key: &str,
) -> Result<(ParquetRecordBatchReaderBuilder<Bytes>, N), String> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| format!("not a whole Parquet file: {e}"))?;
    let note = note_in(builder.metadata(), key).ok_or("it has no marketcurves note")?;
    Ok((builder, note))
}
