use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch};
use object_store::memory::InMemory;
use object_store::PutPayload;
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use super::*;

/// A Parquet file of `rows` rows whose footer carries `note` bytes of
/// metadata besides.
fn parquet(rows: i64, note: usize) -> Vec<u8> {
    let values = Arc::new(Int64Array::from_iter_values(0..rows));
    let batch = RecordBatch::try_from_iter([("id", values as _)]).unwrap();
    let note = KeyValue::new("note".into(), "n".repeat(note));
    let properties = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![note]))
        .build();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(properties)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    bytes
}

async fn put(store: &InMemory, name: &str, bytes: Vec<u8>) -> (StorePath, u64) {
    let key = StorePath::from(name);
    let size = bytes.len() as u64;
    store.put(&key, PutPayload::from(bytes)).await.unwrap();
    (key, size)
}

#[tokio::test]
async fn rows_come_from_the_footer_whatever_its_size() {
    let store = InMemory::new();
    let (small, size) = put(&store, "a.parquet", parquet(1234, 10)).await;
    assert_eq!(rows_in_object(&store, &small, None).await, Ok(1234));
    assert_eq!(rows_in_object(&store, &small, Some(size)).await, Ok(1234));
    // A footer longer than the tail read first takes a second read.
    let (big, size) = put(&store, "b.parquet", parquet(77, 2 * TAIL as usize)).await;
    assert_eq!(rows_in_object(&store, &big, Some(size)).await, Ok(77));
}

#[tokio::test]
async fn other_objects_and_wrong_sizes_are_refused() {
    let store = InMemory::new();
    let (text, _) = put(&store, "b.txt", b"not parquet at all".to_vec()).await;
    assert!(rows_in_object(&store, &text, None).await.is_err());
    let (tiny, _) = put(&store, "c", b"PAR1".to_vec()).await;
    assert!(rows_in_object(&store, &tiny, None).await.is_err());
    let (file, size) = put(&store, "d.parquet", parquet(10, 10)).await;
    assert!(rows_in_object(&store, &file, Some(size + 1)).await.is_err());
    assert!(rows_in_object(&store, &file, Some(size - 1)).await.is_err());
}
