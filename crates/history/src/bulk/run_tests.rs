use std::path::PathBuf;

use super::*;
use crate::bulk::test_service::{self, parquet_file, Script, ServedFile, TempFolder, TestService};

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
        matches!(&error, ClientError::BulkJobFailed { job_id: None, reason, .. } if reason.starts_with("no bulk job succeeded in 2 attempts")),
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
    let dest = Place::folder_to_write("dest", &folder.0).unwrap();
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
            ClientError::InvalidRequest(invalid) => invalid.to_string(),
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
fn in_memory() -> (std::sync::Arc<object_store::memory::InMemory>, Place) {
    let store = std::sync::Arc::new(object_store::memory::InMemory::new());
    let location = places::storage::Location {
        store: store.clone(),
        prefix: object_store::path::Path::from("exports"),
        shown: "memory://bucket/exports".into(),
    };
    (store, Place::Store(location))
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

/// One month served under a file name the test chooses.
fn jet_file(month: &str, name: &str, rows: i64) -> ServedFile {
    ServedFile {
        path: format!("vertical=Jet/year=2025/month={month}"),
        name: name.into(),
        bytes: parquet_file(rows),
    }
}

/// Every file under `folder`, relative, sorted (hidden ones included).
fn everything_in(folder: &Path) -> Vec<String> {
    fn walk(root: &Path, at: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, found);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut found = Vec::new();
    walk(folder, folder, &mut found);
    found.sort();
    found
}

#[tokio::test]
async fn two_files_of_one_name_in_a_partition_are_both_kept() {
    let service = TestService::start(Script {
        files: vec![
            jet_file("01", "data.parquet", 3),
            jet_file("01", "data.parquet", 4),
            jet_file("02", "data.parquet", 5),
        ],
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("same-name");
    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    assert_eq!(result.rows, 12, "no row set is lost");
    assert_eq!(
        everything_in(&folder.0),
        [
            "vertical=Jet/year=2025/month=01/data-1.parquet",
            "vertical=Jet/year=2025/month=01/data.parquet",
            "vertical=Jet/year=2025/month=02/data.parquet",
        ]
    );
    let again = download_quickly(&service.http(), &folder.0).await.unwrap();
    assert_eq!(
        (again.rows, again.bytes),
        (12, 0),
        "a rerun finds each file under its name"
    );
}

/// A download that breaks halfway through its only file and is not retried.
async fn cut_off(service: &TestService, folder: &Path) -> ClientError {
    service.change(|script| script.cut_downloads = 1);
    let once = BulkOptions {
        max_retries: 0,
        ..quick()
    };
    download(
        &service.http(),
        &request(folder),
        &once,
        &BulkProgress::default(),
    )
    .await
    .unwrap_err()
}

/// A Parquet file of `rows` ids counting down: unlike `parquet_file`'s,
/// its bytes differ from the first page on.
fn newest_first(rows: i64) -> Vec<u8> {
    use arrow_array::{Int64Array, RecordBatch};
    let ids = Int64Array::from_iter_values((0..rows).rev());
    let batch = RecordBatch::try_from_iter([("id", std::sync::Arc::new(ids) as _)]).unwrap();
    let mut bytes = Vec::new();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    bytes
}

fn one_month(rows: i64) -> Vec<ServedFile> {
    vec![jet_file("01", "part-01.parquet", rows)]
}

const FINAL: &str = "vertical=Jet/year=2025/month=01/part-01.parquet";

#[tokio::test]
async fn a_broken_transfer_resumes_where_it_stopped_if_the_file_is_the_same() {
    let service = TestService::start(Script {
        files: one_month(2_000),
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("resume-same");
    cut_off(&service, &folder.0).await;
    let left = everything_in(&folder.0);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].ends_with(".part"), "{left:?}");

    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    let size = parquet_file(2_000).len();
    let requests = service.requests();
    let last = requests.last().unwrap();
    assert!(
        last.ends_with(&format!("Range: bytes={}-", size / 2)),
        "{last}"
    );
    assert_eq!(
        (result.rows, result.bytes),
        (2_000, (size - size / 2) as u64)
    );
    assert_eq!(everything_in(&folder.0), [FINAL]);
    assert_eq!(
        std::fs::read(folder.0.join(FINAL)).unwrap(),
        parquet_file(2_000)
    );
}

#[tokio::test]
async fn a_part_of_a_file_that_changed_since_is_never_spliced_onto_the_new_one() {
    let service = TestService::start(Script {
        files: one_month(2_000),
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("resume-changed");
    cut_off(&service, &folder.0).await;
    let left = everything_in(&folder.0);
    assert!(left.len() == 1 && left[0].ends_with(".part"), "{left:?}");
    // A curve added to the vertical: the same name, other bytes from the
    // first on, and more of them.
    let changed = newest_first(2_500);
    service.change(|script| script.files[0].bytes = changed.clone());

    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    let requests = service.requests();
    let last = requests.last().unwrap();
    assert!(
        last.contains("Range: bytes="),
        "the resume was asked for: {last}"
    );
    assert_eq!(result.rows, 2_500);
    assert_eq!(everything_in(&folder.0), [FINAL]);
    assert_eq!(std::fs::read(folder.0.join(FINAL)).unwrap(), changed);
}

#[tokio::test]
async fn with_no_version_named_a_broken_transfer_starts_over() {
    let service = TestService::start(Script {
        files: one_month(2_000),
        no_validators: true,
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("no-validator");
    cut_off(&service, &folder.0).await;
    assert_eq!(
        everything_in(&folder.0),
        Vec::<String>::new(),
        "nothing to resume is kept"
    );
    service.change(|script| script.cut_downloads = 1);
    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    assert_eq!(result.rows, 2_000);
    let ranged = service
        .requests()
        .iter()
        .filter(|r| r.contains("Range:"))
        .count();
    assert_eq!(ranged, 0, "no Range without a version to hold it to");
    assert_eq!(
        std::fs::read(folder.0.join(FINAL)).unwrap(),
        parquet_file(2_000)
    );
}

#[tokio::test]
async fn a_body_that_is_not_parquet_never_takes_the_final_name() {
    let mut files = one_month(10);
    files[0].bytes = vec![b'x'; files[0].bytes.len()];
    let service = TestService::start(Script {
        files,
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("not-parquet");
    let error = download_quickly(&service.http(), &folder.0)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ClientError::BulkJobFailed { reason, .. } if reason.contains("not a Parquet file")),
        "{error:?}"
    );
    assert_eq!(everything_in(&folder.0), Vec::<String>::new());
}

#[tokio::test]
async fn a_corrupt_file_under_the_final_name_is_set_aside_and_fetched_again() {
    let service = TestService::start(Script {
        files: one_month(10),
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("corrupt-final");
    let target = folder.0.join(FINAL);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(&target, vec![0u8; parquet_file(10).len()]).unwrap();

    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    assert_eq!(result.rows, 10);
    assert_eq!(std::fs::read(&target).unwrap(), parquet_file(10));
    assert_eq!(
        everything_in(&folder.0),
        [FINAL.to_owned(), format!("{FINAL}.corrupt")]
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_link_planted_where_a_part_would_be_is_never_written_through() {
    let service = TestService::start(Script {
        files: one_month(10),
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("planted-link");
    let outside = folder.0.join("outside");
    std::fs::write(&outside, b"keep").unwrap();
    let month = folder.0.join("dest/vertical=Jet/year=2025/month=01");
    std::fs::create_dir_all(&month).unwrap();
    // Named as a part holding a version would be, and as the old fixed name was.
    for name in [
        ".part-01.parquet.AAAAAAAAAAAA.ImFiYyI.part",
        ".part-01.parquet.part",
    ] {
        std::os::unix::fs::symlink(&outside, month.join(name)).unwrap();
    }
    let result = download_quickly(&service.http(), &folder.0.join("dest"))
        .await
        .unwrap();
    assert_eq!(result.rows, 10);
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    assert!(!month.join("part-01.parquet").is_symlink());
}

#[tokio::test]
async fn months_the_job_lists_no_file_for_are_named() {
    let service = TestService::start(Script {
        files: vec![jet_file("02", "part-02.parquet", 5)],
        ..Script::default()
    })
    .await;
    let folder = TempFolder::new("no-file");
    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    let named: Vec<String> = result
        .months_without_files
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(named, ["2025-01"]);

    service.change(|script| script.files.clear());
    let result = download_quickly(&service.http(), &folder.0).await.unwrap();
    assert_eq!(
        result.months_without_files.len(),
        2,
        "a job with no file at all"
    );
    assert_eq!((result.rows, result.files.len()), (0, 0));
}

/// A whole part left under `folder` for the only file, as a run killed
/// between its last byte and the rename leaves it, holding `bytes` of the
/// version `etag` names.
fn leave_whole_part(folder: &Path, bytes: &[u8], etag: &str) {
    let target = folder.join(FINAL);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    let part = crate::bulk::part::Part::create(&target, Some(etag)).unwrap();
    std::fs::write(part.path(), bytes).unwrap();
    drop(part); // holding bytes of a named version, it stays
}

#[tokio::test]
async fn a_whole_part_is_kept_only_once_the_service_says_it_is_the_same_version() {
    let served = newest_first(1_000);
    let older = parquet_file(1_000);
    assert_eq!(served.len(), older.len(), "same size, other bytes");
    let service = TestService::start(Script {
        files: vec![ServedFile {
            path: "vertical=Jet/year=2025/month=01".into(),
            name: "part-01.parquet".into(),
            bytes: served.clone(),
        }],
        ..Script::default()
    })
    .await;
    let size = served.len();

    let same = TempFolder::new("whole-part-same");
    leave_whole_part(&same.0, &served, &test_service::etag_of(&served));
    let result = download_quickly(&service.http(), &same.0).await.unwrap();
    assert_eq!(result.bytes, 1, "only the last byte, under If-Range");
    assert_eq!(std::fs::read(same.0.join(FINAL)).unwrap(), served);

    let changed = TempFolder::new("whole-part-changed");
    leave_whole_part(&changed.0, &older, &test_service::etag_of(&older));
    let result = download_quickly(&service.http(), &changed.0).await.unwrap();
    assert_eq!(result.bytes, size as u64, "the file that changed, whole");
    assert_eq!(std::fs::read(changed.0.join(FINAL)).unwrap(), served);
    let requests = service.requests();
    assert!(requests
        .last()
        .unwrap()
        .ends_with(&format!("Range: bytes={}-", size - 1)));
    assert_eq!(everything_in(&changed.0), [FINAL]);
}
