use super::*;
use crate::accounts::Accounts;
use crate::bulk::jobs::JobRequest;
use crate::bulk::Bulk;
use crate::calendar::{Calendar, EarlyClose};
use crate::clock::Clock;
use crate::faults::Faults;
use crate::live::Live;
use crate::requests::Requests;
use crate::world::World;
use domain::month::Month;
use domain::timestamp::parse_timestamp;
use domain::vocabulary::find_vertical;

fn state() -> Arc<AppState> {
    Arc::new(AppState {
        world: World::new(0, Calendar::new(EarlyClose::ChristmasAndNewYearsEve)),
        clock: Clock::new(None, 0.0),
        accounts: Accounts::new(0),
        faults: Faults::default(),
        bulk: Bulk::new(0),
        live: Live::new(0),
        requests: Requests::default(),
    })
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
