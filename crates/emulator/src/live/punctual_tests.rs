use super::*;

// How close to the deadline it wakes is a matter of timing, shown by the
// live feed benchmark's latency; here only that it never wakes early.
#[tokio::test]
async fn a_wait_ends_no_earlier_than_asked() {
    for wait in [0, 300, 1_999, 2_000, 5_000] {
        let wait = Duration::from_micros(wait);
        let started = Instant::now();
        sleep_precisely(wait).await;
        assert!(started.elapsed() >= wait, "{wait:?}");
    }
}
