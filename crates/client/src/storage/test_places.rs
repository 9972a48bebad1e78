//! What the unit tests of the storage layer and its users share: a folder
//! and an in-memory store to run each test on, and a runtime.

use std::path::PathBuf;
use std::sync::Arc;

use object_store::memory::InMemory;
use object_store::path::Path as StorePath;

use super::{Location, Place};

/// A fresh local folder (not yet made).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-place-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn in_memory() -> Place {
    Place::Store(Location {
        store: Arc::new(InMemory::new()),
        prefix: StorePath::from("recordings/desk"),
        shown: "memory://recordings/desk".into(),
    })
}

/// A local folder and a store, so each test runs on both.
pub fn both(name: &str) -> Vec<Place> {
    vec![Place::Folder(scratch(name)), in_memory()]
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}
