use super::*;

const MIN: Duration = Duration::from_millis(250);
const MAX: Duration = Duration::from_secs(30);

#[test]
fn waits_stay_between_min_and_an_exponential_ceiling_capped_at_max() {
    let mut backoff = Backoff::new(MIN, MAX);
    for failures in 0..40u32 {
        let ceiling = MIN.saturating_mul(1 << failures.min(20)).min(MAX);
        let mut low = backoff.clone();
        let mut high = backoff.clone();
        assert_eq!(low.next_wait(0.0), MIN);
        let top = high.next_wait(0.999_999);
        assert!(top <= ceiling && top >= MIN, "{failures}: {top:?}");
        assert!(
            ceiling - top < Duration::from_millis(1),
            "{failures}: {top:?}"
        );
        let wait = backoff.next_wait(fastrand::f64());
        assert!(wait >= MIN && wait <= MAX);
    }
    assert_eq!(backoff.clone().next_wait(0.999_999).as_secs(), 29);
    backoff.reset();
    assert!(backoff.next_wait(0.999_999) <= MIN);
}

#[test]
fn a_zero_minimum_still_grows_and_nothing_panics() {
    let mut backoff = Backoff::new(Duration::ZERO, Duration::from_secs(1));
    assert!(backoff.next_wait(0.5) <= Duration::from_millis(5));
    for _ in 0..10 {
        backoff.next_wait(0.5);
    }
    assert_eq!(backoff.next_wait(0.5), Duration::from_millis(500));
    let mut inverted = Backoff::new(Duration::from_secs(2), Duration::from_secs(1));
    assert_eq!(inverted.next_wait(0.9), Duration::from_secs(2));
}
