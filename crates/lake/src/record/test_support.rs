//! What the lake's unit tests share: places (a folder and an in-memory
//! store) and ticks.

use std::sync::Arc;

use super::file::{encode, recorded_rows_to_batch, FileNote, Recorded};
use super::layout::{part_name, utc_day};
use domain::timestamp::Micros;
use live::{Tick, TickSource};
use object_store::path::Path as StorePath;
use places::storage::{Location, Place};
pub(crate) use test_support::{runtime, scratch};

/// 2025-11-24 00:00 UTC.
pub(crate) const MIDNIGHT: Micros = 1_763_942_400_000_000;
pub(crate) const MS: Micros = 1_000;

pub(crate) fn row(curve: &str, tenor: &str, at: Micros, source: TickSource) -> Recorded {
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

/// Writes `rows` (all of one day) as the part numbered `sequence`; its name
/// and note.
pub(crate) async fn write_part(
    dest: &Place,
    rows: &[Recorded],
    sequence: u64,
) -> (String, FileNote) {
    let note = FileNote::of_rows(rows);
    let day = utc_day(rows[0].tick.generated_on);
    let name = part_name(day, MIDNIGHT + sequence as i64, "test", sequence);
    let bytes = encode(&[recorded_rows_to_batch(rows).unwrap()], &note).unwrap();
    dest.put(&name, bytes).await.unwrap();
    (name, note)
}

/// A local folder and an in-memory store, so each test runs on both.
pub(crate) fn both(name: &str) -> Vec<Place> {
    let store = Place::Store(Location {
        store: test_support::in_memory_store(),
        prefix: StorePath::from("recordings/desk"),
        shown: "memory://recordings/desk".into(),
    });
    vec![Place::Folder(scratch(name)), store]
}
