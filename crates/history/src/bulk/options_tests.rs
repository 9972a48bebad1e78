use super::*;

#[test]
fn waiting_bounds_are_checked_seconds() {
    let options = BulkOptions::waiting(0.5, None).unwrap();
    assert_eq!(options.poll_interval, Duration::from_millis(500));
    assert_eq!(options.wait_timeout, None);
    assert_eq!(options.max_jobs, BulkOptions::default().max_jobs);
    let limited = BulkOptions::waiting(2.0, Some(60.0)).unwrap();
    assert_eq!(limited.wait_timeout, Some(Duration::from_secs(60)));
    let error = |r: Result<BulkOptions, ClientError>| r.unwrap_err().to_string();
    // The argument is data, which the binding words as its parameter.
    assert!(matches!(
        BulkOptions::waiting(0.0, None),
        Err(ClientError::InvalidRequest(i)) if i.argument == Argument::PollInterval
    ));
    assert!(error(BulkOptions::waiting(0.0, None)).starts_with("poll interval must be"));
    assert!(error(BulkOptions::waiting(1.0, Some(f64::NAN))).starts_with("timeout must be"));
}

#[test]
fn the_phase_is_seen_as_its_number() {
    let progress = BulkProgress::default();
    progress.enter(Phase::Downloading);
    progress.bytes_total.store(10, Ordering::Relaxed);
    progress.bytes_done.store(4, Ordering::Relaxed);
    assert_eq!(progress.snapshot(), (2, 4, 10));
}
