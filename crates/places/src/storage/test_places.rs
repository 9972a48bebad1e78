//! What the unit tests of the storage layer and its users share: a folder
//! and an in-memory store to run each test on, and a runtime.

use object_store::path::Path as StorePath;

use super::{Location, Place};

pub(crate) use test_support::{runtime, scratch};

pub(crate) fn in_memory() -> Place {
    Place::Store(Location {
        store: test_support::in_memory_store(),
        prefix: StorePath::from("recordings/desk"),
        shown: "memory://recordings/desk".into(),
    })
}

/// A local folder and a store, so each test runs on both.
pub(crate) fn both(name: &str) -> Vec<Place> {
    vec![Place::Folder(scratch(name)), in_memory()]
}
