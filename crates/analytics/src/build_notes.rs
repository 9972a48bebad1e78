//! What `build` noticed in a table and went on without: tenors it cannot
//! place on delivery days, prices read from text, rows keyed by a date they
//! do not have. None stops a curve being built, and each would otherwise
//! pass unseen, so each is noted in the output's schema metadata, where the
//! Python face finds it and warns (the core does no warning of its own).

use std::collections::BTreeMap;

use arrow_array::Array;
use arrow_schema::DataType;

use super::input::{Input, TimeKey};
use super::panel::Panel;
use domain::arrow::Table;
use domain::tenor::TenorKind;

/// Curve id to the tenors left out because their names say no delivery
/// days (`Cal 26`, a name of no known shape), as a JSON object.
pub const DROPPED_TENORS: &str = "marketcurves.dropped_tenors";
/// The type of a `price` column of text, and how many of its values are not
/// numbers (read as no price), as a JSON object.
pub const PRICE_FROM_TEXT: &str = "marketcurves.price_from_text";
/// How many rows have a price and a `generated_on` but no `date` in a
/// table keyed by `date`, as a JSON number.
pub const UNDATED_ROWS: &str = "marketcurves.undated_rows";

#[derive(Debug, Default, PartialEq)]
pub(crate) struct Notes {
    pub dropped: BTreeMap<String, Vec<String>>,
    /// The column's type, and its values that are not numbers.
    pub price_from_text: Option<(String, usize)>,
    pub undated: usize,
}

impl Notes {
    /// What `input`, grouped as `panel`, has that `build` leaves aside.
    pub(crate) fn of(input: &Input, panel: &Panel) -> Notes {
        let mut dropped = BTreeMap::new();
        for curve in &panel.curves {
            // Continuous tenors (`C 00`) have no delivery days by design:
            // the docs say so and every history has them, so they are not
            // noted.
            let names: Vec<String> = curve
                .contracts
                .iter()
                .filter(|t| t.kind() == TenorKind::Other)
                .map(|t| t.name().to_owned())
                .collect();
            if !names.is_empty() {
                dropped.insert(curve.curve_id.clone(), names);
            }
        }
        Notes {
            dropped,
            price_from_text: price_from_text(input),
            undated: undated(input),
        }
    }

    /// `table` with the notes in its schema's metadata; as it was when
    /// there are none.
    pub(crate) fn noted(self, table: Table) -> Table {
        let mut metadata = table.schema.metadata().clone();
        if !self.dropped.is_empty() {
            let json = serde_json::to_string(&self.dropped).expect("strings");
            metadata.insert(DROPPED_TENORS.to_owned(), json);
        }
        if let Some((kind, unread)) = self.price_from_text {
            let json = serde_json::json!({ "type": kind, "not_numbers": unread });
            metadata.insert(PRICE_FROM_TEXT.to_owned(), json.to_string());
        }
        if self.undated > 0 {
            metadata.insert(UNDATED_ROWS.to_owned(), self.undated.to_string());
        }
        table.with_metadata(metadata)
    }
}

/// A `price` column of text read as numbers: its type, and how many of its
/// values did not read as one.
fn price_from_text(input: &Input) -> Option<(String, usize)> {
    let column = input.batch.column_by_name("price")?;
    let text = match column.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => true,
        DataType::Dictionary(_, values) => matches!(
            values.as_ref(),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
        ),
        _ => false,
    };
    // A cast leaves null what is not a number; nulls of the column itself
    // are not counted.
    let unread = input.values.null_count() - column.logical_null_count();
    text.then(|| (column.data_type().to_string(), unread))
}

/// Rows with a price and a `generated_on` but no `date`, in a table keyed
/// by `date`: left out, as every row without its key is.
fn undated(input: &Input) -> usize {
    if input.key != TimeKey::Date || input.time.null_count() == 0 {
        return 0;
    }
    let Some(generated_on) = input.batch.column_by_name(TimeKey::GeneratedOn.column()) else {
        return 0;
    };
    (0..input.num_rows())
        .filter(|&i| input.time.is_null(i) && generated_on.is_valid(i) && input.values.is_valid(i))
        .count()
}

#[cfg(test)]
#[path = "build_notes_tests.rs"]
mod tests;
