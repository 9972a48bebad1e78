//! Reading a downloaded bulk dataset: every `*.parquet` file under
//! `vertical=…/year=…/month=…/` with the partition columns added, read with
//! the `parquet` crate, files in parallel.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, RecordBatchReader, StringArray};
use arrow_schema::{ArrowError, Field, Schema, SchemaRef};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::ChunkReader;

use super::args;
use super::partition::Partition;
use crate::rest::validate;
use domain::arrow::{
    bulk_dataset_schema, bulk_partition_columns, dependency_lists, metadata_maps, MetadataPair,
    Table,
};
use domain::month::Month;
use domain::records::Dependency;
use domain::vocabulary::find_vertical;
use places::ClientError;

/// Which partitions to read.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// A vertical in any spelling (`Jet`, `JET`, `fuel_oil`).
    pub vertical: Option<String>,
    pub start: Option<Month>,
    pub end: Option<Month>,
    /// Decode the JSON text columns `meta_data` and `dependencies` into a map
    /// and a list of structs, as in the REST tables.
    pub parse_json: bool,
}

fn same_vertical(a: &str, b: &str) -> bool {
    match (find_vertical(a), find_vertical(b)) {
        (Some(x), Some(y)) => x.name == y.name,
        _ => a.eq_ignore_ascii_case(b),
    }
}

impl Selection {
    /// A selection from the caller's text: a vertical in any spelling and
    /// months written `YYYY-MM`, each checked, `start` not after `end`.
    pub fn new(
        vertical: Option<&str>,
        start: Option<&str>,
        end: Option<&str>,
        parse_json: bool,
    ) -> Result<Selection, ClientError> {
        let vertical = vertical
            .map(|v| validate::vertical(v).map(|v| v.name.to_owned()))
            .transpose()?;
        let start = start.map(|s| args::month("start", s)).transpose()?;
        let end = end.map(|e| args::month("end", e)).transpose()?;
        if let (Some(first), Some(last)) = (start, end) {
            validate::date_range(first, last)?;
        }
        Ok(Selection {
            vertical,
            start,
            end,
            parse_json,
        })
    }

    pub(crate) fn wants(&self, partition: &Partition) -> bool {
        self.vertical
            .as_deref()
            .is_none_or(|v| same_vertical(v, &partition.vertical))
            && self.start.is_none_or(|s| partition.month >= s)
            && self.end.is_none_or(|e| partition.month <= e)
    }
}

fn io_error(path: &Path, error: impl std::fmt::Display) -> ClientError {
    read_error(&path.display().to_string(), error)
}

fn read_error(name: &str, error: impl std::fmt::Display) -> ClientError {
    ClientError::invalid(
        places::Argument::Named(name.into()),
        places::Rule::Place,
        format!("cannot read {name}: {error}"),
    )
}

/// The files to read, in partition order, with their partition.
pub fn find_files(
    dest: &Path,
    selection: &Selection,
) -> Result<Vec<(Partition, PathBuf)>, ClientError> {
    let mut found = Vec::new();
    let read_dir = |dir: &Path| std::fs::read_dir(dir).map_err(|e| io_error(dir, e));
    for vertical in read_dir(dest)? {
        let vertical = vertical.map_err(|e| io_error(dest, e))?.path();
        for year in read_dir(&vertical).into_iter().flatten().flatten() {
            for month in read_dir(&year.path()).into_iter().flatten().flatten() {
                let dir = month.path();
                let Ok(relative) = dir.strip_prefix(dest) else {
                    continue;
                };
                let Some(text) = relative.to_str() else {
                    continue;
                };
                let Ok(partition) = Partition::parse(&text.replace('\\', "/")) else {
                    continue;
                };
                if !selection.wants(&partition) {
                    continue;
                }
                for file in read_dir(&dir)?.flatten() {
                    let path = file.path();
                    let name = file.file_name();
                    let name = name.to_string_lossy();
                    if name.ends_with(".parquet") && !name.starts_with('.') && path.is_file() {
                        found.push((partition.clone(), path));
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| (&a.0.vertical, a.0.month, &a.1).cmp(&(&b.0.vertical, b.0.month, &b.1)));
    Ok(found)
}

/// One file's batches with the partition columns appended.
fn read_file(
    partition: &Partition,
    path: &Path,
    parse_json: bool,
) -> Result<(SchemaRef, Vec<RecordBatch>), ClientError> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    read_parquet(partition, file, &path.display().to_string(), parse_json)
}

/// The batches of one Parquet file (on disk, or fetched whole), named
/// `name` in messages, with the partition columns appended.
pub(crate) fn read_parquet<R: ChunkReader + 'static>(
    partition: &Partition,
    source: R,
    name: &str,
    parse_json: bool,
) -> Result<(SchemaRef, Vec<RecordBatch>), ClientError> {
    let path = name;
    let reader = ParquetRecordBatchReaderBuilder::try_new(source)
        .map_err(|e| read_error(path, e))?
        .with_batch_size(64 * 1024)
        .build()
        .map_err(|e| read_error(path, e))?;
    let schema = bulk_dataset_schema(&reader.schema());
    let mut batches = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| read_error(path, e))?;
        let rows = batch.num_rows();
        let mut columns = batch.columns().to_vec();
        columns.extend(bulk_partition_columns(
            &partition.vertical,
            partition.month.year(),
            partition.month.month(),
            rows,
        ));
        let batch = RecordBatch::try_new(Arc::clone(&schema), columns)
            .map_err(|e: ArrowError| read_error(path, e))?;
        batches.push(if parse_json {
            typed_json(&batch, path)?
        } else {
            batch
        });
    }
    let schema = batches.first().map_or(schema, RecordBatch::schema);
    Ok((schema, batches))
}

/// The text of a JSON value, as the REST metadata carries it.
fn json_text(value: serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::Null => None,
        serde_json::Value::String(text) => Some(text),
        other => Some(other.to_string()),
    }
}

/// `meta_data` and `dependencies` decoded from JSON text into typed columns.
fn typed_json(batch: &RecordBatch, path: &str) -> Result<RecordBatch, ClientError> {
    let text = |name: &str| {
        batch
            .column_by_name(name)
            .and_then(|c| c.as_any().downcast_ref::<StringArray>())
            .ok_or_else(|| read_error(path, format!("no text column {name}")))
    };
    let bad = |name: &str, row: usize, e: serde_json::Error| {
        read_error(path, format!("{name} of row {row}: {e}"))
    };
    let mut maps: Vec<Option<Vec<MetadataPair>>> = Vec::new();
    for (row, value) in text("meta_data")?.iter().enumerate() {
        maps.push(match value {
            None => None,
            Some(json) => {
                let object: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_str(json).map_err(|e| bad("meta_data", row, e))?;
                Some(object.into_iter().map(|(k, v)| (k, json_text(v))).collect())
            }
        });
    }
    let mut lists: Vec<Option<Vec<Dependency>>> = Vec::new();
    for (row, value) in text("dependencies")?.iter().enumerate() {
        lists.push(match value {
            None => None,
            Some(json) => {
                Some(serde_json::from_str(json).map_err(|e| bad("dependencies", row, e))?)
            }
        });
    }
    let maps: Vec<Option<&[MetadataPair]>> = maps.iter().map(Option::as_deref).collect();
    let lists: Vec<Option<&[Dependency]>> = lists.iter().map(Option::as_deref).collect();
    let typed = [
        (
            "meta_data",
            metadata_maps(&maps).map_err(|e| read_error(path, e))?,
        ),
        (
            "dependencies",
            dependency_lists(&lists).map_err(|e| read_error(path, e))?,
        ),
    ];
    let mut fields: Vec<Field> = Vec::new();
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        match typed.iter().find(|(name, _)| name == field.name()) {
            Some((name, array)) => {
                fields.push(Field::new(*name, array.data_type().clone(), true));
                columns.push(Arc::clone(array));
            }
            None => {
                fields.push(field.as_ref().clone());
                columns.push(Arc::clone(column));
            }
        }
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(|e| read_error(path, e))
}

/// The rows of a Parquet file, from its footer.
pub fn rows_in(path: &Path) -> Result<u64, ClientError> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| io_error(path, e))?;
    Ok(builder.metadata().file_metadata().num_rows().max(0) as u64)
}

/// The rows of all `files`, from their footers, read off the async threads.
pub async fn count_rows(files: Vec<PathBuf>) -> Result<u64, ClientError> {
    tokio::task::spawn_blocking(move || files.iter().map(|f| rows_in(f)).sum())
        .await
        .map_err(|e| ClientError::bulk_failed(e.to_string()))?
}

/// Reads the selected partitions of `dest` into one table.
pub async fn read_bulk(dest: PathBuf, selection: Selection) -> Result<Table, ClientError> {
    places::storage::folder::folder_to_read("dest", &dest)?;
    let wanted = selection.clone();
    let files = tokio::task::spawn_blocking(move || find_files(&dest, &wanted))
        .await
        .map_err(|e| {
            ClientError::internal("a blocking task of the bulk read ended abnormally", e)
        })??;
    let parse_json = selection.parse_json;
    let reads = files.into_iter().map(|(partition, path)| {
        tokio::task::spawn_blocking(move || read_file(&partition, &path, parse_json))
    });
    let mut files = Vec::new();
    for read in reads.collect::<Vec<_>>() {
        files.push(read.await.map_err(|e| {
            ClientError::internal("a blocking task of the bulk read ended abnormally", e)
        })??);
    }
    join_files(files)
}

/// One table of the files' batches, in the order given; every file must
/// have the same columns.
pub(crate) fn join_files(files: Vec<(SchemaRef, Vec<RecordBatch>)>) -> Result<Table, ClientError> {
    let mut schema = None;
    let mut batches = Vec::new();
    for (file_schema, file_batches) in files {
        if let Some(first) = &schema {
            if *first != file_schema {
                return Err(ClientError::invalid(
                    places::Argument::Request,
                    places::Rule::Conflict,
                    "the bulk files do not all have the same columns",
                ));
            }
        }
        schema.get_or_insert(file_schema);
        batches.extend(file_batches);
    }
    Ok(Table {
        schema: schema.unwrap_or_else(|| bulk_dataset_schema(&domain::arrow::bulk_file_schema())),
        batches,
    })
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
