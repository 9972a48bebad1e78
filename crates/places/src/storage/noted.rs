//! Parquet files with a note in the footer, the one way the package writes
//! and reads its own files (the history cache's segments and catalogues, a
//! recording's files): any engine reads them as plain Parquet, and the note
//! (JSON under a key of the file's key-value metadata) says what the file
//! holds. A file without its note is not one of ours.

use std::io::Write;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::{KeyValue, ParquetMetaData};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Writes `batches` of `schema` into `out` as one Parquet file, with
/// `note` under `key` in its footer.
pub fn write_noted<W: Write + Send>(
    out: W,
    schema: SchemaRef,
    batches: &[RecordBatch],
    key: &str,
    note: &impl Serialize,
) -> Result<(), String> {
    let note = serde_json::to_string(note).map_err(|e| e.to_string())?;
    let properties = parquet::file::properties::WriterProperties::builder()
        // Snappy: every engine reads it, and setting up its decoder costs
        // nothing, where zstd's costs more than a small file's decoding.
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(vec![KeyValue::new(key.into(), note)]))
        .build();
    let mut writer =
        ArrowWriter::try_new(out, schema, Some(properties)).map_err(|e| e.to_string())?;
    for batch in batches {
        writer.write(batch).map_err(|e| e.to_string())?;
    }
    writer.close().map_err(|e| e.to_string())?;
    Ok(())
}

/// The note under `key` in a file's footer, if it has one that decodes.
pub fn note_in<N: DeserializeOwned>(metadata: &ParquetMetaData, key: &str) -> Option<N> {
    metadata
        .file_metadata()
        .key_value_metadata()?
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| serde_json::from_str(kv.value.as_deref()?).ok())
}
