//! What the unit tests of several layers share, and nothing else: a test
//! folder, a runtime, an in-memory object store and a small Parquet file.
//! A dev-dependency only: no product crate depends on it.

// Test code: a fixture that cannot be set up fails the test at once.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch};
use object_store::memory::InMemory;
use parquet::arrow::ArrowWriter;

/// A fresh local folder (not yet made) under the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-place-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// An empty object store held in memory.
pub fn in_memory_store() -> Arc<InMemory> {
    Arc::new(InMemory::new())
}

/// A runtime on the test's own thread.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A Parquet file of `rows` rows.
pub fn parquet_file(rows: i64) -> Vec<u8> {
    let batch =
        RecordBatch::try_from_iter([("id", Arc::new(Int64Array::from_iter_values(0..rows)) as _)])
            .unwrap();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    bytes
}

/// A folder of its own under the system's temporary folder, removed on drop.
pub struct TempFolder(pub PathBuf);

impl TempFolder {
    pub fn new(name: &str) -> TempFolder {
        let path =
            std::env::temp_dir().join(format!("marketcurves-bulk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempFolder(path)
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
