use super::*;

#[test]
fn a_stopped_clock_moves_only_when_told() {
    let start = DateTime::parse_from_rfc3339("2025-06-13T10:00:00Z")
        .unwrap()
        .to_utc();
    let clock = Clock::new(Some(start), 0.0);
    assert_eq!(clock.now(), start.timestamp_micros());
    clock.advance(90_000_000);
    assert_eq!(clock.now(), start.timestamp_micros() + 90_000_000);
}

#[test]
fn an_accelerated_clock_runs_faster() {
    let clock = Clock::new(None, 1_000.0);
    let before = clock.now();
    std::thread::sleep(std::time::Duration::from_millis(20));
    // 20 ms of real time is at least 20 s of emulated time.
    assert!(clock.now() - before >= 20_000_000);
}
