//! The curves a table holds, named in its schema's metadata: the key
//! [`CURVES_KEY`] holds a JSON list of `{"id", "name", "units",
//! "quotation"}`, one entry per curve, in the order the curves first appear
//! (a curve asked for that returned no row is listed all the same). A name,
//! units or quotation the catalogue did not give is `null`. Every table the
//! client returns carries it, and the curve functions carry it on for the
//! curves of their output, so a plot or a notebook view can name a curve and
//! its units without being told again. Written and read here only.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Schema, SchemaRef};
use serde::{Deserialize, Serialize};

use super::Table;
use crate::records::CurveQuotation;

/// The schema metadata key of a table's curves.
pub const CURVES_KEY: &str = "marketcurves.curves";

/// One curve of a table, as the catalogue describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedCurve {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub units: Option<String>,
    #[serde(default)]
    pub quotation: Option<String>,
}

impl NamedCurve {
    /// A curve the catalogue did not describe: its id alone.
    pub fn unnamed(id: &str) -> NamedCurve {
        NamedCurve {
            id: id.to_owned(),
            ..NamedCurve::default()
        }
    }

    /// The catalogue's row, if it has an id.
    pub fn from_quotation(curve: &CurveQuotation) -> Option<NamedCurve> {
        Some(NamedCurve {
            id: curve.id.clone()?,
            name: curve.name.clone(),
            units: curve.units.clone(),
            quotation: curve.quotation.clone(),
        })
    }
}

/// Each of `ids` as `catalogue` describes it (its id alone where the
/// catalogue does not list it), each once, in order.
pub fn named_curves<'a>(
    ids: impl IntoIterator<Item = &'a str>,
    catalogue: &[CurveQuotation],
) -> Vec<NamedCurve> {
    let mut out: Vec<NamedCurve> = Vec::new();
    for id in ids {
        if out.iter().any(|c| c.id == id) {
            continue;
        }
        let listed = catalogue
            .iter()
            .find(|c| c.id.as_deref() == Some(id))
            .and_then(NamedCurve::from_quotation);
        out.push(listed.unwrap_or_else(|| NamedCurve::unnamed(id)));
    }
    out
}

/// The distinct values of the string column `column` in every batch, in the
/// order they first appear; none if the table has no such column. Reads
/// strings, large strings, views and dictionaries of strings, so tables that
/// went through pandas or polars are read alike.
pub fn curve_ids(batches: &[RecordBatch], column: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    // Looked up by hash: a bulk dataset has millions of rows and hundreds of
    // curves, and a search of the list for each row took minutes.
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |value: Option<&str>| {
        if let Some(value) = value {
            if !seen.contains(value) {
                seen.insert(value.to_owned());
                ids.push(value.to_owned());
            }
        }
    };
    for batch in batches {
        let Some(array) = batch.column_by_name(column) else {
            continue;
        };
        match array.data_type() {
            DataType::Utf8 => array.as_string::<i32>().iter().for_each(&mut add),
            DataType::LargeUtf8 => array.as_string::<i64>().iter().for_each(&mut add),
            DataType::Utf8View => array.as_string_view().iter().for_each(&mut add),
            DataType::Dictionary(_, values) if is_text(values) => {
                let dictionary = array.as_any_dictionary();
                let keys = dictionary.normalized_keys();
                let values = dictionary.values();
                for (row, key) in keys.into_iter().enumerate() {
                    if dictionary.is_null(row) {
                        continue;
                    }
                    add(text_at(values.as_ref(), key));
                }
            }
            _ => {}
        }
    }
    ids
}

fn is_text(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    )
}

fn text_at(values: &dyn Array, index: usize) -> Option<&str> {
    if values.is_null(index) {
        return None;
    }
    Some(match values.data_type() {
        DataType::Utf8 => values.as_string::<i32>().value(index),
        DataType::LargeUtf8 => values.as_string::<i64>().value(index),
        DataType::Utf8View => values.as_string_view().value(index),
        _ => return None,
    })
}

/// `table` with `curves` under [`CURVES_KEY`], replacing what was there;
/// without the key when `curves` is empty. Its columns untouched.
pub fn with_curves(table: Table, curves: &[NamedCurve]) -> Table {
    let metadata = curves_metadata(table.schema.metadata(), curves);
    table.with_metadata(metadata)
}

/// `schema` with `curves` under [`CURVES_KEY`], as [`with_curves`] writes
/// them: for batches built one at a time (the live feed's), which take the
/// schema made once rather than write the key each.
pub fn schema_with_curves(schema: &Schema, curves: &[NamedCurve]) -> SchemaRef {
    let metadata = curves_metadata(schema.metadata(), curves);
    Arc::new(Schema::new_with_metadata(schema.fields().clone(), metadata))
}

fn curves_metadata(
    metadata: &HashMap<String, String>,
    curves: &[NamedCurve],
) -> HashMap<String, String> {
    let mut metadata = metadata.clone();
    if curves.is_empty() {
        metadata.remove(CURVES_KEY);
    } else {
        let json = serde_json::to_string(curves).expect("strings");
        metadata.insert(CURVES_KEY.to_owned(), json);
    }
    metadata
}

/// `table` naming `asked` and then every other curve of its column
/// `column` (`curve_id`; a bulk dataset's `id`), as `catalogue` describes
/// them.
pub fn name_table(
    table: Table,
    column: &str,
    asked: &[&str],
    catalogue: &[CurveQuotation],
) -> Table {
    let present = curve_ids(&table.batches, column);
    let ids = asked
        .iter()
        .copied()
        .chain(present.iter().map(String::as_str));
    let curves = named_curves(ids, catalogue);
    with_curves(table, &curves)
}

/// The curves named in `metadata`; none if it has no key or one that does
/// not read as the list this module writes.
pub fn curves_in(metadata: &HashMap<String, String>) -> Vec<NamedCurve> {
    metadata
        .get(CURVES_KEY)
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default()
}

/// `table` naming the curves of `inputs` (each input's metadata) whose ids
/// appear in the columns `columns` of `table`, in the order they appear
/// there; as it was when no input names a curve (a table from elsewhere).
pub fn carry_curves(inputs: &[&HashMap<String, String>], table: Table, columns: &[&str]) -> Table {
    let known: Vec<NamedCurve> = inputs.iter().flat_map(|m| curves_in(m)).collect();
    if known.is_empty() {
        return table;
    }
    let mut curves: Vec<NamedCurve> = Vec::new();
    for column in columns {
        for id in curve_ids(&table.batches, column) {
            let Some(curve) = known.iter().find(|c| c.id == id) else {
                continue;
            };
            if !curves.iter().any(|c| c.id == id) {
                curves.push(curve.clone());
            }
        }
    }
    with_curves(table, &curves)
}

#[cfg(test)]
#[path = "curves_key_tests.rs"]
mod tests;
