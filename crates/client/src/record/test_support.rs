//! What the recorder's unit tests share: destinations and ticks.

use std::path::PathBuf;
use std::sync::Arc;

use object_store::memory::InMemory;
use object_store::path::Path as StorePath;

use super::dest::Dest;
use super::file::{encode, recorded_rows_to_batch, FileNote, Recorded};
use super::layout::{part_name, utc_day};
use crate::live::{Tick, TickSource};
use crate::storage::Location;
use domain::timestamp::Micros;

/// 2025-11-24 00:00 UTC.
pub const MIDNIGHT: Micros = 1_763_942_400_000_000;
pub const MS: Micros = 1_000;

/// A fresh local folder (not yet made).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn in_memory() -> Dest {
    Dest::Store(Location {
        store: Arc::new(InMemory::new()),
        prefix: StorePath::from("recordings/desk"),
        shown: "memory://recordings/desk".into(),
    })
}

/// A local folder and a store, so each test runs on both.
pub fn both(name: &str) -> Vec<Dest> {
    vec![Dest::Local(scratch(name)), in_memory()]
}

pub fn row(curve: &str, tenor: &str, at: Micros, source: TickSource) -> Recorded {
    Recorded {
        tick: Tick {
            curve_id: Arc::from(curve),
            tenor: Arc::from(tenor),
            generated_on: at,
            price: at as f64 / 1e6,
            source,
        },
        recorded_at: at + 5 * MS,
    }
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Writes `rows` (all of one day) as the part numbered `sequence`; its name
/// and note.
pub async fn write_part(dest: &Dest, rows: &[Recorded], sequence: u64) -> (String, FileNote) {
    let note = FileNote::of_rows(rows);
    let day = utc_day(rows[0].tick.generated_on);
    let name = part_name(day, MIDNIGHT + sequence as i64, "test", sequence);
    let bytes = encode(&[recorded_rows_to_batch(rows).unwrap()], &note).unwrap();
    dest.put(&name, bytes).await.unwrap();
    (name, note)
}
