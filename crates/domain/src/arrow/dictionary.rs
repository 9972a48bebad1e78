//! Dictionary columns in one form: each value once, in order of first use.
//! Joining batches appends their dictionaries (`continuous` once per page),
//! and Arrow compares dictionary arrays by dictionary and keys, not by the
//! values they stand for; so a table is compacted wherever batches are
//! joined, and the same rows always give the same table.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int8Type;
use arrow_array::{Array, DictionaryArray, Int8Array, RecordBatch, StringArray};
use arrow_schema::ArrowError;

/// The batch with its `Dictionary<Int8, Utf8>` columns compacted.
pub fn compact_dictionaries(batch: RecordBatch) -> Result<RecordBatch, ArrowError> {
    let mut columns = batch.columns().to_vec();
    let mut changed = false;
    for column in &mut columns {
        if let Some(compact) = column.as_dictionary_opt::<Int8Type>().and_then(compact) {
            *column = Arc::new(compact);
            changed = true;
        }
    }
    if !changed {
        return Ok(batch);
    }
    RecordBatch::try_new(batch.schema(), columns)
}

/// The array with each value once, in order of first use; None if it is
/// already so (or its values are not strings).
fn compact(array: &DictionaryArray<Int8Type>) -> Option<DictionaryArray<Int8Type>> {
    let values = array.values().as_string_opt::<i32>()?;
    let keys = array.keys();
    let mut remap: Vec<Option<i8>> = vec![None; values.len()];
    let mut kept: Vec<&str> = Vec::new();
    let mut new_keys: Vec<Option<i8>> = Vec::with_capacity(keys.len());
    for i in 0..keys.len() {
        if keys.is_null(i) {
            new_keys.push(None);
            continue;
        }
        let old = keys.value(i) as usize;
        let new = match remap.get(old).copied().flatten() {
            Some(new) => new,
            None => {
                let value = values.value(old);
                let new = match kept.iter().position(|v| *v == value) {
                    Some(position) => position,
                    None => {
                        kept.push(value);
                        kept.len() - 1
                    }
                } as i8;
                remap[old] = Some(new);
                new
            }
        };
        new_keys.push(Some(new));
    }
    let identity = kept.len() == values.len()
        && remap
            .iter()
            .enumerate()
            .all(|(i, new)| *new == Some(i as i8));
    if identity {
        return None;
    }
    DictionaryArray::try_new(Int8Array::from(new_keys), Arc::new(StringArray::from(kept))).ok()
}

#[cfg(test)]
#[path = "dictionary_tests.rs"]
mod tests;
