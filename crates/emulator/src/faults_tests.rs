use super::*;

#[test]
fn failures_count_down_and_match_prefixes() {
    let faults = Faults::default();
    faults.fail_next(2, 503, Some("/catalogue".into()), Some(1));
    assert_eq!(faults.take("/v2/ongoing/intraday/x/y"), Injected::None);
    let fail = Injected::Fail {
        status: 503,
        retry_after: Some(1),
    };
    assert_eq!(faults.take("/v2/catalogue"), fail);
    assert_eq!(faults.take("/v2/catalogue"), fail);
    assert_eq!(faults.take("/v2/catalogue"), Injected::None);
}

#[test]
fn only_failures_named_by_path_reach_the_live_handshake() {
    let faults = Faults::default();
    faults.fail_next(1, 503, None, None);
    assert_eq!(faults.take_named("/v2/customer/socket/websocket"), None);
    faults.fail_next(1, 502, Some("/customer/socket".into()), None);
    assert_eq!(
        faults.take_named("/v2/customer/socket/websocket"),
        Some(502)
    );
    assert_eq!(faults.take_named("/v2/customer/socket/websocket"), None);
    assert!(matches!(
        faults.take("/v2/catalogue"),
        Injected::Fail { status: 503, .. }
    ));
}

#[test]
fn spoilings_and_clear() {
    let faults = Faults::default();
    faults.reset_next(1, None);
    faults.corrupt_next(2, Some("/ongoing".into()), Corruption::Malformed);
    faults.fail_next(1, 500, Some("/v2/historical".into()), None);
    assert_eq!(
        faults.take("/v2/ongoing/intraday/a/b"),
        Injected::Spoil(Spoil::Reset)
    );
    assert_eq!(faults.take("/v2/catalogue"), Injected::None);
    assert_eq!(
        faults.take("/v2/ongoing/intraday/a/b"),
        Injected::Spoil(Spoil::Corrupt(Corruption::Malformed))
    );
    faults.corrupt_next(1, None, Corruption::Truncated);
    faults.set_latency(Duration::from_millis(5));
    faults.clear();
    assert_eq!(
        faults.take("/v2/historical/settlements/a/b"),
        Injected::None
    );
    assert_eq!(faults.latency(), Duration::ZERO);
}

#[test]
fn bulk_faults_count_down_and_clear() {
    let faults = Faults::default();
    assert!(!faults.take_job_failure());
    faults.fail_next_job(2);
    assert!(faults.take_job_failure());
    assert!(faults.take_job_failure());
    assert!(!faults.take_job_failure());
    faults.truncate_next_download(1);
    assert!(faults.take_truncation());
    assert!(!faults.take_truncation());
    faults.fail_next_job(3);
    faults.truncate_next_download(3);
    faults.set_malicious_paths(true);
    assert!(faults.malicious_paths());
    faults.clear();
    assert!(!faults.take_job_failure());
    assert!(!faults.take_truncation());
    assert!(!faults.malicious_paths());
}
