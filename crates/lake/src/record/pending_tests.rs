use std::sync::Arc;

use super::*;
use domain::timestamp::Micros;
use live::{Tick, TickSource};

const DAY: Micros = 86_400_000_000;
const MIDNIGHT: Micros = 1_763_942_400_000_000; // 2025-11-24 00:00 UTC

fn row(at: Micros) -> Recorded {
    Recorded {
        tick: Tick {
            curve_id: Arc::from("C1"),
            tenor: Arc::from("Jan 26"),
            generated_on: at,
            price: 1.0,
            source: TickSource::Update,
        },
        recorded_at: at,
    }
}

#[test]
fn nothing_is_sealed_before_its_time_or_size() {
    let mut pending = Pending::default();
    pending.push([row(MIDNIGHT), row(MIDNIGHT + 1)]);
    pending.seal(Duration::from_secs(60), 10, false);
    assert!(pending.sealed.is_empty());
    assert_eq!(pending.held(), 2);
}

#[test]
fn size_seals_one_file_per_day_in_chunks() {
    let mut pending = Pending::default();
    let rows = (0..5).map(|i| row(MIDNIGHT - 2 + i));
    pending.push(rows);
    pending.seal(Duration::from_secs(60), 2, false);
    let shape: Vec<(NaiveDate, usize)> = pending
        .sealed
        .iter()
        .map(|s| (s.day, s.rows.len()))
        .collect();
    let (yesterday, today) = (utc_day(MIDNIGHT - 1), utc_day(MIDNIGHT));
    assert_eq!(shape, vec![(yesterday, 2), (today, 2), (today, 1)]);
    assert_eq!(pending.held(), 5);
    assert!(pending.holds_before(today));
    assert!(!pending.holds_before(yesterday));
    pending.written();
    assert_eq!(pending.held(), 3);
    assert!(!pending.holds_before(today));
}

#[test]
fn time_and_force_seal_what_is_open() {
    let mut pending = Pending::default();
    pending.push([row(MIDNIGHT + DAY)]);
    pending.seal(Duration::ZERO, 10, false);
    assert_eq!(pending.sealed.len(), 1);
    pending.push([row(MIDNIGHT + DAY + 1)]);
    pending.seal(Duration::from_secs(3600), 10, true);
    assert_eq!(pending.sealed.len(), 2);
    pending.clear();
    assert_eq!(pending.held(), 0);
}

#[test]
fn a_sealed_file_keeps_its_name_and_bytes_across_attempts() {
    let mut pending = Pending::default();
    pending.push([row(MIDNIGHT)]);
    pending.seal(Duration::ZERO, 10, true);
    let front = pending.sealed.front_mut().unwrap();
    front.encode(|_| "first".into()).unwrap();
    front.encode(|_| "second".into()).unwrap();
    let (name, bytes, note) = front.encoded.clone().unwrap();
    assert_eq!(name, "first");
    assert_eq!(note.rows, 1);
    assert!(bytes.starts_with(b"PAR1"));
}
