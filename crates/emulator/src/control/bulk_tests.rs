use std::collections::BTreeSet;

use super::super::tests::controls;
use super::super::ControlError;
use crate::bulk::jobs::JobRequest;
use domain::month::Month;
use domain::vocabulary::find_vertical;

#[test]
fn job_and_download_faults_count_down() {
    let controls = controls();
    let faults = &controls.state.faults;
    controls.fail_next_job(2).unwrap();
    controls.truncate_next_download(1).unwrap();
    assert!(faults.take_job_failure() && faults.take_job_failure());
    assert!(!faults.take_job_failure());
    assert!(faults.take_truncation() && !faults.take_truncation());
    assert_eq!(controls.fail_next_job(0), Err(ControlError::ZeroCount));
    assert_eq!(
        controls.truncate_next_download(0),
        Err(ControlError::ZeroCount)
    );
}

#[test]
fn malicious_paths_switch_on_and_off() {
    let controls = controls();
    controls.malicious_paths(true);
    assert!(controls.state.faults.malicious_paths());
    controls.malicious_paths(false);
    assert!(!controls.state.faults.malicious_paths());
}

#[test]
fn urls_of_jobs_that_succeeded_expire() {
    let controls = controls();
    let jobs = &controls.state.bulk.jobs;
    let month = Month::parse("2025-03").unwrap();
    let submit = |submitted_at| {
        jobs.submit(JobRequest {
            owner: "demo".into(),
            vertical: find_vertical("Jet").unwrap(),
            first: month,
            last: month,
            requested_months: 1,
            denied: BTreeSet::new(),
            curves: 233,
            submitted_at,
            fails: false,
            malicious: false,
        })
    };
    let now = controls.state.clock.now();
    let done = submit(now - 60_000_000);
    let running = submit(now);
    controls.expire_urls();
    assert!(done.urls_expired());
    assert!(!running.urls_expired());
}
