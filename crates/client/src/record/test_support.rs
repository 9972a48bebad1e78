//! What the recorder's unit tests share: places (`storage::test_places`) and ticks.

use std::sync::Arc;

use super::file::{encode, recorded_rows_to_batch, FileNote, Recorded};
use super::layout::{part_name, utc_day};
use crate::live::{Tick, TickSource};
pub use crate::storage::test_places::{both, runtime, scratch};
use crate::storage::Place;
use domain::timestamp::Micros;

/// 2025-11-24 00:00 UTC.
pub const MIDNIGHT: Micros = 1_763_942_400_000_000;
pub const MS: Micros = 1_000;

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

/// Writes `rows` (all of one day) as the part numbered `sequence`; its name
/// and note.
pub async fn write_part(dest: &Place, rows: &[Recorded], sequence: u64) -> (String, FileNote) {
    let note = FileNote::of_rows(rows);
    let day = utc_day(rows[0].tick.generated_on);
    let name = part_name(day, MIDNIGHT + sequence as i64, "test", sequence);
    let bytes = encode(&[recorded_rows_to_batch(rows).unwrap()], &note).unwrap();
    dest.put(&name, bytes).await.unwrap();
    (name, note)
}
