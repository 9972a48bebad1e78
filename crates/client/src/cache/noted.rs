//! The cache's files: Parquet that any engine reads, with a note in the
//! footer saying what the file holds, written atomically (`atomic`). A file
//! without its note is not one of ours, and is not trusted.

use std::fs::File;
use std::io;
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::atomic;

/// Writes `batches` of `schema` to `path`, with `note` under `key` in the footer.
pub fn write(
    path: &Path,
    schema: SchemaRef,
    batches: &[RecordBatch],
    key: &str,
    note: &impl Serialize,
) -> io::Result<()> {
    let note = serde_json::to_string(note).map_err(io::Error::other)?;
    let properties = WriterProperties::builder()
        // Snappy: every engine reads it, and setting up its decoder costs
        // nothing, where zstd's costs more than a small file's decoding.
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(vec![KeyValue::new(key.into(), note)]))
        .build();
    atomic::write_file(path, |out| {
        let mut writer =
            ArrowWriter::try_new(out, schema, Some(properties)).map_err(io::Error::other)?;
        for batch in batches {
            writer.write(batch).map_err(io::Error::other)?;
        }
        writer.close().map_err(io::Error::other)?;
        Ok(())
    })
}

/// A reader of `file` and the note under `key` in its footer; Err with the
/// reason if the file is not whole or has no such note.
pub fn open<N: DeserializeOwned>(
    file: File,
    key: &str,
) -> Result<(ParquetRecordBatchReaderBuilder<File>, N), String> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| format!("not a whole Parquet file: {e}"))?;
    let note = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|pairs| pairs.iter().find(|kv| kv.key == key))
        .and_then(|kv| serde_json::from_str(kv.value.as_deref()?).ok())
        .ok_or("it has no marketcurves note")?;
    Ok((builder, note))
}
