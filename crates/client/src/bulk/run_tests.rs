use std::path::PathBuf;

use super::*;
use crate::bulk::test_service::{parquet_file, Script, ServedFile, TempFolder, TestService};

/// Two months of Jet: 3 rows in January, 5 in February.
fn two_months() -> Vec<ServedFile> {
    [("01", 3), ("02", 5)]
        .into_iter()
        .map(|(month, rows)| ServedFile {
            path: format!("vertical=Jet/year=2025/month={month}"),
            name: format!("part-{month}.parquet"),
            bytes: parquet_file(rows),
        })
        .collect()
}

fn quick() -> BulkOptions {
    BulkOptions::waiting(0.01, Some(10.0)).unwrap()
}

fn request(dest: &Path) -> BulkRequest {
    BulkRequest::new("jet", "2025-01", "2025-02", dest).unwrap()
}

/// A whole download into `dest`, polling quickly, with no one watching progress.
async fn download_quickly(http: &Http, dest: &Path) -> Result<BulkResult, ClientError> {
    download(http, &request(dest), &quick(), &BulkProgress::default()).await
}

fn count(requests: &[String], prefix: &str) -> usize {
    requests.iter().filter(|r| r.starts_with(prefix)).count()
}

const SUBMIT: &str = "POST /v2/bulk-download/job-submit";
const STATUS: &str = "GET /v2/bulk-download/job-status/";
const FILE: &str = "GET /files/";

#[tokio::test]
async fn a_download_submits_waits_fetches_and_counts_the_rows() {
    let files = two_months();
    let sizes: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
    let service = TestService::start(Script {
        files,
        running_polls: 2,
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("download");
    let progress = BulkProgress::default();
    let result = download(&service.http(), &request(&folder.0), &quick(), &progress)
        .await
        .unwrap();

    let month = |m: &str| {
        folder
            .0
            .join(format!("vertical=Jet/year=2025/month={m}/part-{m}.parquet"))
    };
    assert_eq!(result.files, vec![month("01"), month("02")]);
    assert!(result.files.iter().all(|f| f.is_file()));
    assert_eq!((result.rows, result.bytes, result.jobs), (8, sizes, 1));
    assert_eq!(result.job.job_id, "job-1");
    assert!(!result.job.narrowed());
    assert_eq!(progress.snapshot(), (Phase::Done as u8, sizes, sizes));
    let requests = service.requests();
    assert_eq!(
        requests[0],
        format!("{SUBMIT}?startDate=2025-01&endDate=2025-02&vertical=JET")
    );
    assert_eq!(count(&requests, STATUS), 3, "two RUNNING, then SUCCEEDED");
    assert_eq!(count(&requests, FILE), 2);
}

#[tokio::test]
async fn a_rerun_fetches_only_what_is_missing_and_still_counts_every_row() {
    let service = TestService::start(Script {
        files: two_months(),
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("rerun");
    let http = service.http();
    let first = download_quickly(&http, &folder.0).await.unwrap();
    let lost = &first.files[1];
    let lost_size = std::fs::metadata(lost).unwrap().len();
    std::fs::remove_file(lost).unwrap();
    let again = download_quickly(&http, &folder.0).await.unwrap();
    assert_eq!((again.bytes, again.rows), (lost_size, first.rows));
    assert_eq!(count(&service.requests(), FILE), 3);
}

#[tokio::test]
async fn a_failed_job_is_submitted_again_up_to_the_limit() {
    let service = TestService::start(Script {
        files: two_months(),
        failing_jobs: 1,
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("failed");
    let http = service.http();
    let result = download_quickly(&http, &folder.0).await.unwrap();
    assert_eq!((result.jobs, result.job.job_id.as_str()), (2, "job-2"));

    service.change(|script| script.failing_jobs = 10);
    let options = BulkOptions {
        max_jobs: 2,
        ..quick()
    };
    let error = download(
        &http,
        &request(&folder.0),
        &options,
        &BulkProgress::default(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&error, ClientError::BulkJobFailed(why) if why.starts_with("no bulk job succeeded in 2 attempts")),
        "{error:?}"
    );
}

#[tokio::test]
async fn expired_urls_are_renewed_by_running_the_job_again() {
    let service = TestService::start(Script {
        files: two_months(),
        expired_downloads: 2,
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("expired");
    let result = download(
        &service.http(),
        &request(&folder.0),
        &quick(),
        &BulkProgress::default(),
    )
    .await
    .unwrap();
    assert_eq!((result.jobs, result.rows), (2, 8));
    assert!(result.files.iter().all(|f| f.is_file()));
}

#[tokio::test]
async fn a_job_download_waits_for_the_job_then_reports_expired_urls_as_an_error() {
    let service = TestService::start(Script {
        files: two_months(),
        running_polls: 1,
        narrowed_to: Some(("2025-02", "2025-02")),
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("job");
    let dest = Target::folder("dest", &folder.0).unwrap();
    let http = service.http();
    let job = job::submit(&http, &request(&folder.0).job).await.unwrap();
    assert!(job.narrowed());

    service.change(|script| script.expired_downloads = 1);
    let error = download_job(&http, &job, &dest, &quick(), &BulkProgress::default())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("expired"), "{error}");
    assert_eq!(
        count(&service.requests(), SUBMIT),
        1,
        "a job is not run again"
    );

    let result = download_job(&http, &job, &dest, &quick(), &BulkProgress::default())
        .await
        .unwrap();
    assert_eq!(result.job, job);
    assert_eq!((result.jobs, result.rows, result.files.len()), (1, 8, 2));
}

#[tokio::test]
async fn a_path_outside_the_partitions_refuses_the_whole_listing() {
    let mut files = two_months();
    files[1].path = "vertical=Jet/year=2025/month=02/../../../x".into();
    let service = TestService::start(Script {
        files,
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("refused");
    let dest = folder.0.join("dest");
    let error = download(
        &service.http(),
        &request(&dest),
        &quick(),
        &BulkProgress::default(),
    )
    .await
    .unwrap_err();
    assert!(error.to_string().contains("refused bulk path"), "{error}");
    assert_eq!(count(&service.requests(), FILE), 0);
    let written: Vec<PathBuf> = std::fs::read_dir(&folder.0)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        written,
        vec![dest.clone()],
        "only the folder, made once the job succeeded"
    );
    assert_eq!(std::fs::read_dir(&dest).unwrap().count(), 0);
}

#[test]
fn a_request_is_checked_before_anything_is_sent() {
    let folder = TempFolder::new("request");
    let file = folder.0.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let refused =
        |vertical, start, end, dest: &Path| match BulkRequest::new(vertical, start, end, dest)
            .unwrap_err()
        {
            ClientError::InvalidRequest(message) => message,
            other => panic!("{other:?}"),
        };
    assert!(refused("Coal", "2025-01", "2025-02", &folder.0).starts_with("vertical \"Coal\""));
    assert!(refused("JET", "2025-1", "2025-02", &folder.0).starts_with("start must be"));
    assert!(refused("JET", "2025-03", "2025-02", &folder.0).contains("after end"));
    assert!(refused("JET", "2025-01", "2025-02", &file).contains("is a file"));
    let checked = BulkRequest::new("fuel oil", "2025-01", "2025-01", folder.0.join("new")).unwrap();
    assert_eq!(checked.job.vertical.bulk_name, "FUEL_OIL");
    assert!(!folder.0.join("new").exists());
}

/// A prefix of an in-memory object store, as a download target.
fn in_memory() -> (std::sync::Arc<object_store::memory::InMemory>, Target) {
    let store = std::sync::Arc::new(object_store::memory::InMemory::new());
    let location = crate::storage::Location {
        store: store.clone(),
        prefix: object_store::path::Path::from("exports"),
        shown: "memory://bucket/exports".into(),
    };
    (store, Target::Store(location))
}

#[tokio::test]
async fn a_download_into_a_store_lands_whole_objects_and_a_rerun_skips_them() {
    use object_store::ObjectStoreExt;
    let files = two_months();
    let sizes: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
    let service = TestService::start(Script {
        files,
        ..Script::default()
    })
    .await;
    let (store, target) = in_memory();
    let request = BulkRequest::to("jet", "2025-01", "2025-02", target).unwrap();
    let (http, options, progress) = (service.http(), quick(), BulkProgress::default());
    let run = || download(&http, &request, &options, &progress);

    let result = run().await.unwrap();
    let url = |m: &str| {
        format!("memory://bucket/exports/vertical=Jet/year=2025/month={m}/part-{m}.parquet")
    };
    assert_eq!(result.objects, vec![url("01"), url("02")]);
    assert!(result.files.is_empty());
    assert_eq!((result.rows, result.bytes), (8, sizes));
    let key =
        object_store::path::Path::from("exports/vertical=Jet/year=2025/month=02/part-02.parquet");
    assert_eq!(
        store.get(&key).await.unwrap().bytes().await.unwrap(),
        parquet_file(5)
    );

    let again = run().await.unwrap();
    assert_eq!((again.rows, again.bytes), (8, 0), "a rerun fetches nothing");
    assert_eq!(count(&service.requests(), FILE), 2);
}
