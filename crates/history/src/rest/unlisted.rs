//! Tenors asked for by name that the catalogue does not list for the curve.
//! Such a tenor is fetched all the same when the curve lists its shape (an
//! expired month has history), but a name the service holds nothing for
//! (a typo such as `Jul 99`) would come back as 0 rows and look like an
//! answer. So when an unlisted tenor returns nothing, the table says so in
//! its schema metadata and the log, and Python warns.

use std::collections::HashSet;

use arrow_array::cast::AsArray;
use arrow_array::Array;
use arrow_schema::DataType;

use domain::arrow::Table;
use domain::tenor::Tenor;

/// The schema metadata key under which a table lists, as a JSON array of
/// names, the tenors asked for that the catalogue does not list and that
/// returned no row.
pub const EMPTY_UNLISTED_TENORS: &str = "marketcurves.empty_unlisted_tenors";

/// The tenors of `asked` that `contracts` does not list and that have no
/// row in `table`, in the order asked.
pub fn empty_unlisted(asked: &[Tenor], contracts: &[Tenor], table: &Table) -> Vec<String> {
    let unlisted: Vec<&Tenor> = asked.iter().filter(|t| !contracts.contains(t)).collect();
    if unlisted.is_empty() {
        return Vec::new();
    }
    let present = tenors_in(table);
    unlisted
        .into_iter()
        .filter(|t| !present.contains(t.name()))
        .map(|t| t.name().to_owned())
        .collect()
}

/// The names in the `tenor` column of every batch.
fn tenors_in(table: &Table) -> HashSet<String> {
    let mut names = HashSet::new();
    for batch in &table.batches {
        let Some(column) = batch.column_by_name("tenor") else {
            continue;
        };
        match column.data_type() {
            DataType::Utf8 => {
                names.extend(
                    column
                        .as_string::<i32>()
                        .iter()
                        .flatten()
                        .map(str::to_owned),
                );
            }
            DataType::Dictionary(_, _) => {
                let dictionary = column.as_any_dictionary();
                let values = dictionary.values().as_string::<i32>();
                for key in dictionary.normalized_keys() {
                    if !names.contains(values.value(key)) {
                        names.insert(values.value(key).to_owned());
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// `table` with `names` under `key` in its schema's metadata, as a JSON
/// array; as it was when `names` is empty.
pub fn noted(table: Table, key: &str, names: &[String]) -> Table {
    if names.is_empty() {
        return table;
    }
    let mut metadata = table.schema.metadata().clone();
    metadata.insert(
        key.to_owned(),
        serde_json::to_string(names).expect("strings"),
    );
    table.with_metadata(metadata)
}

/// `table` noting the tenors of `asked` that are unlisted and empty (and
/// logging them).
pub fn note_empty_unlisted(
    curve_id: &str,
    asked: &[Tenor],
    contracts: &[Tenor],
    table: Table,
) -> Table {
    let names = empty_unlisted(asked, contracts, &table);
    if !names.is_empty() {
        log::warn!(
            target: "marketcurves.rest",
            "curve {curve_id}: {} not among the curve's listed contracts and returned no rows",
            names.join(", ")
        );
    }
    noted(table, EMPTY_UNLISTED_TENORS, &names)
}

#[cfg(test)]
#[path = "unlisted_tests.rs"]
mod tests;
