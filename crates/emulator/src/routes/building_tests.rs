use super::*;
use crate::bulk::jobs::JobRequest;
use crate::EmulatorConfig;
use domain::month::Month;
use domain::timestamp::parse_timestamp;
use domain::vocabulary::find_vertical;

fn state() -> Arc<AppState> {
    Arc::new(AppState::new(&EmulatorConfig {
        time_scale: 0.0,
        ..EmulatorConfig::default()
    }))
}

#[tokio::test]
async fn a_status_that_cannot_wait_sees_the_files_later() {
    let state = state();
    let job = state.bulk.jobs.submit(JobRequest {
        owner: "a@x".into(),
        vertical: find_vertical("FUEL_OIL").unwrap(),
        first: Month::parse("2025-04").unwrap(),
        last: Month::parse("2025-05").unwrap(),
        requested_months: 2,
        denied: Default::default(),
        curves: state.world().curves.len(),
        submitted_at: parse_timestamp("2025-06-13T17:00:00").unwrap(),
        fails: false,
        malicious: false,
    });
    // The build has only been spawned: nothing can be listed yet.
    assert!(job_sizes(&state, &job, Duration::ZERO).await.is_none());
    let sizes = job_sizes(&state, &job, Duration::from_secs(60))
        .await
        .unwrap()
        .unwrap();
    let months: Vec<Month> = job.months().collect();
    assert_eq!(sizes.len(), months.len());
    for (month, size) in months.into_iter().zip(sizes.iter()) {
        assert_eq!(state.bulk.files.size(&job.key(month)), Some(*size));
    }
}
