//! Column names, types and order of every table the package returns.
//!
//! One row per price record. Columns, in this order where they apply:
//! curve_id, tenor, tenor_kind, tenor_start, tenor_end, date (settlements),
//! snapshot (assessments), generated_on, price, units, dependencies, metadata,
//! source (live).

use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};

/// Which columns a table has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// Last settlement, ongoing and historical intraday.
    Prices,
    /// Historical end-of-day snapshots: adds `date`.
    Settlements,
    /// Last assessments, long form: adds `snapshot`.
    Assessments,
    /// Live feed ticks: no units, dependencies or metadata (the feed carries
    /// none); adds `source` (snapshot / update / backfill).
    Live,
}

impl TableKind {
    pub fn parse(name: &str) -> Option<TableKind> {
        match name {
            "prices" => Some(TableKind::Prices),
            "settlements" => Some(TableKind::Settlements),
            "assessments" => Some(TableKind::Assessments),
            "live" => Some(TableKind::Live),
            _ => None,
        }
    }
}

pub fn schema(kind: TableKind) -> SchemaRef {
    let mut fields = vec![
        Field::new("curve_id", DataType::Utf8, false),
        Field::new("tenor", DataType::Utf8, false),
        Field::new("tenor_kind", tenor_kind_type(), false),
        Field::new("tenor_start", DataType::Date32, true),
        Field::new("tenor_end", DataType::Date32, true),
    ];
    match kind {
        TableKind::Prices | TableKind::Live => {}
        TableKind::Settlements => fields.push(Field::new("date", DataType::Date32, true)),
        TableKind::Assessments => fields.push(Field::new("snapshot", DataType::Utf8, false)),
    }
    fields.extend([
        Field::new("generated_on", generated_on_type(), true),
        Field::new("price", DataType::Float64, false),
    ]);
    if kind == TableKind::Live {
        fields.push(Field::new("source", DataType::Utf8, false));
    } else {
        fields.extend([
            Field::new("units", DataType::Utf8, true),
            Field::new("dependencies", dependencies_type(), true),
            Field::new("metadata", metadata_type(), true),
        ]);
    }
    Arc::new(Schema::new(fields))
}

pub(crate) fn tenor_kind_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8))
}

pub(crate) fn generated_on_type() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
}

pub(super) fn dependency_fields() -> Fields {
    Fields::from(vec![
        Field::new("id", DataType::Utf8, true),
        Field::new("name", DataType::Utf8, true),
        Field::new("value", DataType::Float64, true),
        Field::new("units", DataType::Utf8, true),
        Field::new("tenor_name", DataType::Utf8, true),
    ])
}

pub(super) fn dependency_item() -> Arc<Field> {
    Arc::new(Field::new(
        "item",
        DataType::Struct(dependency_fields()),
        true,
    ))
}

fn dependencies_type() -> DataType {
    DataType::List(dependency_item())
}

/// Named as pyarrow names a map's parts, so `pa.map_(pa.string(), pa.string())` matches.
pub(super) fn metadata_entry() -> Arc<Field> {
    Arc::new(Field::new(
        "entries",
        DataType::Struct(metadata_entry_fields()),
        false,
    ))
}

pub(super) fn metadata_entry_fields() -> Fields {
    Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, true),
    ])
}

fn metadata_type() -> DataType {
    DataType::Map(metadata_entry(), false)
}
