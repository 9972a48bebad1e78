//! Built files, kept in memory. A job's status needs every file's exact size,
//! so files are built when their job succeeds; sizes are kept for good, bytes
//! only up to a budget, least recently used going first. A file that was let
//! go is built again on download: building is deterministic, so it comes back
//! byte for byte.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use bytes::Bytes;

use super::records::FileKey;

/// Bytes of files held at most (a month of one vertical is a few MB).
pub(crate) const DEFAULT_BUDGET: usize = 256 << 20;

pub struct FileCache {
    held: Mutex<Held>,
    /// One build at a time: builds are CPU-bound, and a file asked for twice
    /// at once is then built once.
    building: tokio::sync::Mutex<()>,
    budget: usize,
}

#[derive(Default)]
struct Held {
    sizes: HashMap<FileKey, u64>,
    bytes: HashMap<FileKey, Bytes>,
    /// Least recently used first.
    order: VecDeque<FileKey>,
    total: usize,
}

impl Held {
    fn touch(&mut self, key: &FileKey) -> Option<Bytes> {
        let bytes = self.bytes.get(key)?.clone();
        if let Some(i) = self.order.iter().position(|k| k == key) {
            let key = self.order.remove(i).expect("found");
            self.order.push_back(key);
        }
        Some(bytes)
    }

    fn insert(&mut self, key: FileKey, bytes: Bytes, budget: usize) {
        self.sizes.insert(key.clone(), bytes.len() as u64);
        self.total += bytes.len();
        self.bytes.insert(key.clone(), bytes);
        self.order.push_back(key);
        while self.total > budget && self.order.len() > 1 {
            let oldest = self.order.pop_front().expect("not empty");
            if let Some(dropped) = self.bytes.remove(&oldest) {
                self.total -= dropped.len();
            }
        }
    }
}

impl FileCache {
    pub fn new(budget: usize) -> FileCache {
        FileCache {
            held: Mutex::default(),
            building: tokio::sync::Mutex::new(()),
            budget,
        }
    }

    /// The size of a file built before.
    pub fn size(&self, key: &FileKey) -> Option<u64> {
        self.held
            .lock()
            .expect("cache lock")
            .sizes
            .get(key)
            .copied()
    }

    /// The bytes of a file, built by `build` on a blocking thread if they are
    /// not held.
    pub async fn get_or_build<F>(&self, key: &FileKey, build: F) -> Result<Bytes, String>
    where
        F: FnOnce() -> Result<Vec<u8>, String> + Send + 'static,
    {
        if let Some(bytes) = self.held.lock().expect("cache lock").touch(key) {
            return Ok(bytes);
        }
        let _building = self.building.lock().await;
        // Someone may have built it while this call waited its turn.
        if let Some(bytes) = self.held.lock().expect("cache lock").touch(key) {
            return Ok(bytes);
        }
        let bytes = tokio::task::spawn_blocking(build)
            .await
            .map_err(|e| format!("building the file failed: {e}"))??;
        let bytes = Bytes::from(bytes);
        let mut held = self.held.lock().expect("cache lock");
        debug_assert!(
            held.sizes
                .get(key)
                .is_none_or(|&size| size == bytes.len() as u64),
            "a rebuilt file has the size it had"
        );
        held.insert(key.clone(), bytes.clone(), self.budget);
        Ok(bytes)
    }
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
