//! The cache's files: Parquet with a note in the footer saying what the
//! file holds (`storage::noted`), written whole (`storage::whole_file`). A file
//! without its note is not one of ours, and is not trusted.

use std::fs::File;
use std::io;
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::de::DeserializeOwned;
use serde::Serialize;

use places::storage::noted::{note_in, write_noted};
use places::storage::whole_file::{write_whole, Durability};

/// Writes `batches` of `schema` to `path`, with `note` under `key` in the footer.
pub(super) fn write(
    path: &Path,
    schema: SchemaRef,
    batches: &[RecordBatch],
    key: &str,
    note: &impl Serialize,
) -> io::Result<()> {
    // Renamed, not synced: a file a crash of the machine leaves short is
    // found corrupt when read (its footer and note are checked) and fetched
    // again.
    write_whole(path, Durability::Renamed, |out| {
        write_noted(out, schema, batches, key, note).map_err(io::Error::other)
    })
}

/// A reader of `file` and the note under `key` in its footer; Err with the
/// reason if the file is not whole or has no such note.
pub(super) fn open<N: DeserializeOwned>(
    file: File,
    key: &str,
) -> Result<(ParquetRecordBatchReaderBuilder<File>, N), String> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| format!("not a whole Parquet file: {e}"))?;
    let note = note_in(builder.metadata(), key).ok_or("it has no marketcurves note")?;
    Ok((builder, note))
}
