use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch};
use object_store::memory::InMemory;
use object_store::PutPayload;
use parquet::arrow::ArrowWriter;

use super::*;

fn parquet(rows: i64) -> Vec<u8> {
    let values = Arc::new(Int64Array::from_iter_values(0..rows));
    let batch = RecordBatch::try_from_iter([("id", values as _)]).unwrap();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    bytes
}

#[tokio::test]
async fn rows_come_from_the_footer_and_other_objects_are_refused() {
    let store = InMemory::new();
    let key = StorePath::from("a.parquet");
    store
        .put(&key, PutPayload::from(parquet(1234)))
        .await
        .unwrap();
    assert_eq!(rows_in_object(&store, &key).await, Ok(1234));

    let text = StorePath::from("b.txt");
    store
        .put(&text, PutPayload::from(b"not parquet at all".to_vec()))
        .await
        .unwrap();
    assert!(rows_in_object(&store, &text).await.is_err());
    let tiny = StorePath::from("c");
    store
        .put(&tiny, PutPayload::from(b"PAR1".to_vec()))
        .await
        .unwrap();
    assert!(rows_in_object(&store, &tiny).await.is_err());
}
