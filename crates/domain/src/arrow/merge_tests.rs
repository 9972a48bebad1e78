use std::sync::Arc;

use super::*;
use crate::arrow::{build_batch, schema, TableKind};
use crate::rows::PriceRow;
use crate::tenor::Tenor;

fn page(times: &[i64]) -> RecordBatch {
    let rows = times
        .iter()
        .map(|&t| PriceRow {
            curve_id: Arc::from("c"),
            tenor: Tenor::parse_lenient("Jan 26"),
            date: None,
            snapshot: None,
            generated_on: Some(t),
            price: t as f64,
            units: None,
            dependencies: None,
            metadata: None,
        })
        .collect();
    build_batch(TableKind::Prices, rows).unwrap()
}

fn times(batch: &RecordBatch) -> Vec<i64> {
    (0..batch.num_rows())
        .map(|i| key(batch, i).1.unwrap())
        .collect()
}

#[test]
fn pages_in_order_are_joined() {
    let pages = [page(&[1, 2]), page(&[3, 4]), page(&[])];
    assert!(already_in_order(&pages));
    let merged = merge_slice(schema(TableKind::Prices), &pages).unwrap();
    assert_eq!(times(&merged), [1, 2, 3, 4]);
}

#[test]
fn pages_newest_first_or_overlapping_are_sorted_and_deduplicated() {
    let pages = [page(&[5, 6]), page(&[3, 4]), page(&[4, 5]), page(&[1])];
    assert!(!already_in_order(&pages));
    let merged = merge_slice(schema(TableKind::Prices), &pages).unwrap();
    assert_eq!(times(&merged), [1, 3, 4, 5, 6]);
    assert_eq!(merged.schema(), schema(TableKind::Prices));
}

#[test]
fn build_batch_keeps_one_row_per_record() {
    let batch = page(&[2, 1, 2, 2]);
    assert_eq!(times(&batch), [1, 2]);
}
