//! One batch from the batches of a slice of a table (the pages of one tenor
//! and window), in table order and without repeated records.
//!
//! Pages normally arrive oldest first and do not overlap, so joining them is
//! enough; a service that orders or pages otherwise costs a sort.

use arrow_array::cast::AsArray;
use arrow_array::types::TimestampMicrosecondType;
use arrow_array::{Array, BooleanArray, RecordBatch};
use arrow_ord::sort::{lexsort_to_indices, SortColumn, SortOptions};
use arrow_schema::{ArrowError, SchemaRef};
use arrow_select::concat::concat_batches;
use arrow_select::filter::filter_record_batch;
use arrow_select::take::take_record_batch;

use super::dictionary::compact_dictionaries;

/// The (tenor, generated_on) key of row `i`; a null time sorts first.
fn key(batch: &RecordBatch, i: usize) -> (&str, Option<i64>) {
    let tenor = batch
        .column_by_name("tenor")
        .expect("tenor column")
        .as_string::<i32>();
    let time = batch
        .column_by_name("generated_on")
        .expect("generated_on column")
        .as_primitive::<TimestampMicrosecondType>();
    (tenor.value(i), time.is_valid(i).then(|| time.value(i)))
}

/// Whether each batch starts strictly after the previous one ends, for one tenor.
fn already_in_order(batches: &[RecordBatch]) -> bool {
    let filled: Vec<&RecordBatch> = batches.iter().filter(|b| b.num_rows() > 0).collect();
    filled.windows(2).all(|pair| {
        let (last, first) = (key(pair[0], pair[0].num_rows() - 1), key(pair[1], 0));
        last.0 == first.0 && last.1 < first.1
    }) && filled
        .iter()
        .all(|b| key(b, 0).0 == key(b, b.num_rows() - 1).0)
}

/// Joins the batches of one slice (each already sorted and without repeats).
pub fn merge_slice(schema: SchemaRef, batches: &[RecordBatch]) -> Result<RecordBatch, ArrowError> {
    let joined = compact_dictionaries(concat_batches(&schema, batches)?)?;
    if already_in_order(batches) {
        return Ok(joined);
    }
    let columns = ["tenor", "generated_on"].map(|name| SortColumn {
        values: joined.column_by_name(name).expect("column").clone(),
        options: Some(SortOptions {
            descending: false,
            nulls_first: true,
        }),
    });
    let sorted = take_record_batch(&joined, &lexsort_to_indices(&columns, None)?)?;
    let keep: BooleanArray = (0..sorted.num_rows())
        .map(|i| Some(i == 0 || key(&sorted, i) != key(&sorted, i - 1)))
        .collect();
    filter_record_batch(&sorted, &keep)
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
