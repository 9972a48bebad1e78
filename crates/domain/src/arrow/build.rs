//! Price rows into a RecordBatch of exactly the schema of their table kind.

use std::sync::Arc;

use arrow_array::builder::{
    Date32Builder, Float64Builder, StringBuilder, StringDictionaryBuilder,
    TimestampMicrosecondBuilder,
};
use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, ListArray, MapArray, RecordBatch, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::ArrowError;

use super::schema::{
    dependency_fields, dependency_item, metadata_entry, metadata_entry_fields, schema, TableKind,
};
use crate::records::Dependency;
use crate::rows::PriceRow;
use crate::timestamp::days_since_epoch;

/// Sorts the rows into table order, keeps one row of each record, and builds
/// one batch. No rows give an empty batch with the full schema.
pub fn build_batch(kind: TableKind, mut rows: Vec<PriceRow>) -> Result<RecordBatch, ArrowError> {
    if kind == TableKind::Live {
        return Err(ArrowError::InvalidArgumentError(
            "live tables are built from ticks (live::ticks_to_batch)".into(),
        ));
    }
    rows.sort_by(PriceRow::table_order);
    rows.dedup_by(|later, earlier| later.same_record(earlier));
    let schema = schema(kind);
    let mut columns: Vec<ArrayRef> = vec![
        strings(rows.iter().map(|r| Some(&*r.curve_id))),
        strings(rows.iter().map(|r| Some(r.tenor.name()))),
        tenor_kinds(&rows),
        dates(rows.iter().map(|r| r.tenor.start())),
        dates(rows.iter().map(|r| r.tenor.end())),
    ];
    match kind {
        TableKind::Prices | TableKind::Live => {}
        TableKind::Settlements => columns.push(dates(rows.iter().map(|r| r.date))),
        TableKind::Assessments => {
            columns.push(strings(rows.iter().map(|r| r.snapshot.map(|s| s.as_str()))))
        }
    }
    let mut generated_on =
        TimestampMicrosecondBuilder::with_capacity(rows.len()).with_timezone("UTC");
    let mut price = Float64Builder::with_capacity(rows.len());
    for row in &rows {
        generated_on.append_option(row.generated_on);
        price.append_value(row.price);
    }
    columns.extend([
        Arc::new(generated_on.finish()) as ArrayRef,
        Arc::new(price.finish()),
        strings(rows.iter().map(|r| r.units.as_deref())),
        dependencies(&rows)?,
        metadata(&rows)?,
    ]);
    RecordBatch::try_new(schema, columns)
}

pub(crate) fn strings<'a>(values: impl Iterator<Item = Option<&'a str>>) -> ArrayRef {
    let mut builder = StringBuilder::new();
    for value in values {
        builder.append_option(value);
    }
    Arc::new(builder.finish())
}

/// A `Date32` column of the dates given, null where there is none.
pub fn dates(values: impl Iterator<Item = Option<chrono::NaiveDate>>) -> ArrayRef {
    let mut builder = Date32Builder::new();
    for value in values {
        builder.append_option(value.map(days_since_epoch));
    }
    Arc::new(builder.finish())
}

fn tenor_kinds(rows: &[PriceRow]) -> ArrayRef {
    tenor_kind_column(rows.iter().map(|r| r.tenor.kind().as_str()))
}

/// The `tenor_kind` column: a dictionary of the kinds that occur.
pub fn tenor_kind_column<'a>(kinds: impl Iterator<Item = &'a str>) -> ArrayRef {
    let mut builder = StringDictionaryBuilder::<Int8Type>::new();
    for kind in kinds {
        builder.append_value(kind);
    }
    Arc::new(builder.finish())
}

/// Offsets and validity of a list column whose row `i` has `lens[i]` items, or is null.
fn list_layout(lens: &[Option<usize>]) -> (OffsetBuffer<i32>, Option<NullBuffer>) {
    let offsets = OffsetBuffer::from_lengths(lens.iter().map(|len| len.unwrap_or(0)));
    let nulls = lens
        .iter()
        .any(Option::is_none)
        .then(|| NullBuffer::from_iter(lens.iter().map(Option::is_some)));
    (offsets, nulls)
}

fn dependencies(rows: &[PriceRow]) -> Result<ArrayRef, ArrowError> {
    let lists: Vec<Option<&[Dependency]>> =
        rows.iter().map(|r| r.dependencies.as_deref()).collect();
    dependency_lists(&lists)
}

fn metadata(rows: &[PriceRow]) -> Result<ArrayRef, ArrowError> {
    let maps: Vec<Option<&[MetadataPair]>> = rows.iter().map(|r| r.metadata.as_deref()).collect();
    metadata_maps(&maps)
}

/// A metadata entry: name and (possibly null) value.
pub type MetadataPair = (String, Option<String>);

/// The `dependencies` column: one list (or null) per row.
pub fn dependency_lists(lists: &[Option<&[Dependency]>]) -> Result<ArrayRef, ArrowError> {
    let lens: Vec<Option<usize>> = lists.iter().map(|l| l.map(<[_]>::len)).collect();
    let items = || lists.iter().flat_map(|l| l.iter().flat_map(|d| d.iter()));
    let mut value = Float64Builder::new();
    for dependency in items() {
        value.append_option(dependency.value);
    }
    let children: Vec<ArrayRef> = vec![
        strings(items().map(|d| d.id.as_deref())),
        strings(items().map(|d| d.name.as_deref())),
        Arc::new(value.finish()),
        strings(items().map(|d| d.units.as_deref())),
        strings(items().map(|d| d.tenor_name.as_deref())),
    ];
    dependency_column(&lens, children)
}

/// The `dependencies` column from each row's number of dependencies (None
/// for null) and the columns of all of them: id, name, value, units,
/// tenor_name.
pub(crate) fn dependency_column(
    lens: &[Option<usize>],
    children: Vec<ArrayRef>,
) -> Result<ArrayRef, ArrowError> {
    let values = StructArray::try_new(dependency_fields(), children, None)?;
    let (offsets, nulls) = list_layout(lens);
    Ok(Arc::new(ListArray::try_new(
        dependency_item(),
        offsets,
        Arc::new(values),
        nulls,
    )?))
}

/// The `metadata` column: one map (or null) per row.
pub fn metadata_maps(maps: &[Option<&[MetadataPair]>]) -> Result<ArrayRef, ArrowError> {
    let lens: Vec<Option<usize>> = maps.iter().map(|m| m.map(<[_]>::len)).collect();
    let entries = || maps.iter().flat_map(|m| m.iter().flat_map(|e| e.iter()));
    let keys = strings(entries().map(|(key, _)| Some(key.as_str())));
    let values = strings(entries().map(|(_, value)| value.as_deref()));
    metadata_column(&lens, keys, values)
}

/// The `metadata` column from each row's number of entries (None for
/// null) and the keys and values of all of them.
pub(crate) fn metadata_column(
    lens: &[Option<usize>],
    keys: ArrayRef,
    values: ArrayRef,
) -> Result<ArrayRef, ArrowError> {
    let entries = StructArray::try_new(metadata_entry_fields(), vec![keys, values], None)?;
    let (offsets, nulls) = list_layout(lens);
    Ok(Arc::new(MapArray::try_new(
        metadata_entry(),
        offsets,
        entries,
        nulls,
        false,
    )?))
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
