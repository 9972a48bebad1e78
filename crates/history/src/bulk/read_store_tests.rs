use std::sync::Arc;

use object_store::memory::InMemory;
use object_store::{ObjectStoreExt, PutPayload};

use super::*;
use crate::bulk::read::read_bulk;
use crate::bulk::test_service::{parquet_file, TempFolder};

const FILES: [(&str, i64); 4] = [
    ("vertical=Jet/year=2024/month=03/a.parquet", 3),
    ("vertical=Jet/year=2024/month=04/a.parquet", 4),
    ("vertical=Naphtha/year=2024/month=03/a.parquet", 5),
    // Neither a data file nor a partition: left alone, as a local read does.
    ("vertical=Jet/year=2024/month=04/.a.parquet.part", 7),
];

/// The same files in a folder and under a prefix of an in-memory store.
async fn both() -> (TempFolder, Location) {
    let folder = TempFolder::new("read-store");
    let store = Arc::new(InMemory::new());
    for (key, rows) in FILES {
        let bytes = parquet_file(rows);
        let path = folder.0.join(key);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let object = StorePath::from(format!("exports/{key}"));
        store.put(&object, PutPayload::from(bytes)).await.unwrap();
    }
    let location = Location {
        store,
        prefix: StorePath::from("exports"),
        shown: "memory://exports".into(),
    };
    (folder, location)
}

#[tokio::test]
async fn a_store_reads_as_the_same_folder_on_disk() {
    let (folder, location) = both().await;
    for selection in [
        Selection::default(),
        Selection::new(Some("JET"), None, None, false).unwrap(),
        Selection::new(None, Some("2024-04"), Some("2024-04"), false).unwrap(),
    ] {
        let from_store = read_bulk_store(location.clone(), selection.clone())
            .await
            .unwrap();
        let from_disk = read_bulk(folder.0.clone(), selection).await.unwrap();
        assert_eq!(from_store.schema, from_disk.schema);
        assert_eq!(from_store.batches, from_disk.batches);
    }
    let all = read_bulk_store(location, Selection::default())
        .await
        .unwrap();
    assert_eq!(all.num_rows(), 12);
}

#[test]
fn only_data_files_of_plain_partitions_are_read() {
    let prefix = StorePath::from("exports");
    let partition = |key: &str| partition_of(&prefix, &StorePath::from(key));
    assert!(partition("exports/vertical=Jet/year=2024/month=03/a.parquet").is_some());
    assert!(partition("exports/vertical=Jet/year=2024/month=03/.a.parquet").is_none());
    assert!(partition("exports/vertical=Jet/year=2024/a.parquet").is_none());
    assert!(partition("exports/vertical=Jet/year=2024/month=13/a.parquet").is_none());
    assert!(partition("other/vertical=Jet/year=2024/month=03/a.parquet").is_none());
}
