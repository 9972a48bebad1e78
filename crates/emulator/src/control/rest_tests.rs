use std::time::Duration;

use super::super::tests::controls;
use super::super::ControlError;
use crate::faults::{Corruption, Injected, Spoil};

const SETTLEMENTS: &str = "/v2/historical/settlements/a/Jul%2025";

#[test]
fn failures_count_down_on_matching_paths() {
    let controls = controls();
    let faults = &controls.state.faults;
    controls
        .fail_next(2, 429, Some("/historical"), Some(3))
        .unwrap();
    assert_eq!(faults.take("/v2/catalogue"), Injected::None);
    let failed = Injected::Fail {
        status: 429,
        retry_after: Some(3),
    };
    assert_eq!(faults.take(SETTLEMENTS), failed);
    assert_eq!(faults.take(SETTLEMENTS), failed);
    assert_eq!(faults.take(SETTLEMENTS), Injected::None);
}

#[test]
fn a_failure_needs_a_count_and_an_http_status() {
    let controls = controls();
    assert_eq!(
        controls.fail_next(1, 700, None, None),
        Err(ControlError::Status(700))
    );
    assert_eq!(
        controls.fail_next(0, 503, None, None),
        Err(ControlError::ZeroCount)
    );
    assert_eq!(controls.state.faults.take("/v2/catalogue"), Injected::None);
}

#[test]
fn resets_and_corruptions_spoil_the_next_responses() {
    let controls = controls();
    let faults = &controls.state.faults;
    controls.reset_next(1, None).unwrap();
    controls
        .corrupt_next(1, Some("/catalogue"), Corruption::Truncated)
        .unwrap();
    controls
        .corrupt_next(1, None, Corruption::Malformed)
        .unwrap();
    assert_eq!(faults.take(SETTLEMENTS), Injected::Spoil(Spoil::Reset));
    let truncated = Injected::Spoil(Spoil::Corrupt(Corruption::Truncated));
    assert_eq!(faults.take("/v2/catalogue"), truncated);
    let malformed = Injected::Spoil(Spoil::Corrupt(Corruption::Malformed));
    assert_eq!(faults.take(SETTLEMENTS), malformed);
    assert_eq!(faults.take(SETTLEMENTS), Injected::None);
    assert_eq!(controls.reset_next(0, None), Err(ControlError::ZeroCount));
    assert_eq!(
        controls.corrupt_next(0, None, Corruption::Truncated),
        Err(ControlError::ZeroCount)
    );
}

#[test]
fn latency_is_a_number_of_seconds_and_clear_faults_removes_everything() {
    let controls = controls();
    let faults = &controls.state.faults;
    controls.set_latency(0.25).unwrap();
    assert_eq!(faults.latency(), Duration::from_millis(250));
    assert!(matches!(
        controls.set_latency(-1.0),
        Err(ControlError::Seconds {
            name: "latency",
            ..
        })
    ));
    assert_eq!(faults.latency(), Duration::from_millis(250));
    controls.fail_next(5, 503, None, None).unwrap();
    controls.reset_next(5, None).unwrap();
    controls.fail_next_job(1).unwrap();
    controls.fail_next_auth(1).unwrap();
    controls.firehose(true);
    controls.clear_faults();
    assert_eq!(faults.latency(), Duration::ZERO);
    assert_eq!(faults.take("/v2/catalogue"), Injected::None);
    assert!(!faults.take_job_failure());
    assert!(!controls.state.live.faults.take_auth_failure());
    assert!(!controls.state.live.faults.firehose());
}
