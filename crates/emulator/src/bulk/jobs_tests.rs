use super::*;
use domain::timestamp::parse_timestamp;
use domain::vocabulary::find_vertical;

fn month(text: &str) -> Month {
    Month::parse(text).unwrap()
}

const NOW: &str = "2025-06-13T17:00:00";

fn request(fails: bool, malicious: bool) -> JobRequest {
    JobRequest {
        owner: "a@x".into(),
        vertical: find_vertical("FUEL_OIL").unwrap(),
        first: month("2025-04"),
        last: month("2025-05"),
        requested_months: 3,
        denied: BTreeSet::new(),
        curves: 233,
        submitted_at: parse_timestamp(NOW).unwrap() + 250_000,
        fails,
        malicious,
    }
}

#[test]
fn ranges_are_narrowed_to_the_licence_and_complete_months() {
    let now = parse_timestamp(NOW).unwrap();
    let narrowed = |s, e, l: Option<&str>| {
        effective_range(month(s), month(e), l.map(month), now)
            .map(|(a, b)| (a.to_string(), b.to_string()))
    };
    let full = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
    assert_eq!(
        narrowed("2023-01", "2025-12", None),
        full("2023-01", "2025-05")
    );
    assert_eq!(
        narrowed("2023-01", "2024-06", Some("2024-03")),
        full("2024-03", "2024-06")
    );
    assert_eq!(
        narrowed("1998-05", "2000-02", None),
        full("2000-01", "2000-02")
    );
    assert_eq!(
        narrowed("2025-06", "2025-08", None),
        None,
        "no complete month"
    );
    assert_eq!(narrowed("2023-01", "2024-02", Some("2024-03")), None);
}

#[test]
fn jobs_run_then_end_on_whole_seconds() {
    let jobs = Jobs::new(0);
    let job = jobs.submit(request(false, false));
    let submitted = parse_timestamp(NOW).unwrap() + 250_000;
    // 2 s + 3 × 0.5 s after submission, rounded up to a whole second.
    assert_eq!(
        job.ready_at,
        parse_timestamp("2025-06-13T17:00:04").unwrap()
    );
    assert_eq!(job.status(submitted), JobStatus::Running);
    assert_eq!(job.status(job.ready_at - 1), JobStatus::Running);
    assert_eq!(job.status(job.ready_at), JobStatus::Succeeded);
    assert_eq!(job.urls_expire(), job.ready_at / 1_000_000 + 3600);
    let failing = jobs.submit(request(true, false));
    assert_ne!(failing.id, job.id);
    assert_eq!(failing.status(failing.ready_at), JobStatus::Failed);
}

#[test]
fn files_have_partition_paths_and_escaping_paths_only_when_asked() {
    let jobs = Jobs::new(0);
    let files = jobs.submit(request(false, false)).files();
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "vertical=Fuel Oil/year=2025/month=04",
            "vertical=Fuel Oil/year=2025/month=05"
        ]
    );
    assert_eq!(files[1].name, "fuel_oil-2025-05.parquet");
    let hostile = jobs.submit(request(false, true)).files();
    assert_eq!(hostile.len(), 4);
    assert_eq!(hostile[2].path, "../../x");
    assert_eq!(hostile[3].path, "/etc/x");
    assert_eq!(hostile[3].month, month("2025-04"));
}

#[test]
fn jobs_belong_to_their_owner_and_urls_expire_on_demand() {
    let jobs = Jobs::new(0);
    let job = jobs.submit(request(false, false));
    assert!(jobs.get(&job.id, "a@x").is_some());
    assert!(jobs.get(&job.id, "b@x").is_none());
    assert!(jobs.get("nope", "a@x").is_none());
    jobs.expire_urls(job.ready_at - 1);
    assert!(!job.urls_expired(), "a running job has issued no URL yet");
    jobs.expire_urls(job.ready_at);
    assert!(job.urls_expired());
}

#[tokio::test]
async fn a_job_is_built_once_and_waited_for() {
    let job = Jobs::new(0).submit(request(false, false));
    let patience = Duration::from_millis(10);
    assert!(job.wait_built(patience).await.is_none());
    assert!(job.claim_build());
    assert!(!job.claim_build());
    job.set_built(Ok(Arc::from([7u64, 8])));
    let sizes = job.wait_built(patience).await.unwrap().unwrap();
    assert_eq!(&sizes[..], [7, 8]);
}
