//! A bulk download end to end: submit, wait, check every path, download
//! concurrently, resubmit a FAILED job, and run the job again for fresh URLs
//! when they expire mid-download.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};

use super::download::{already_done, fetch, DownloadError, FileTask};
use super::job::{self, JobState, Submitted};
use super::partition::{file_name, Partition};
use crate::error::ClientError;
use crate::rest::http::Http;
use domain::month::Month;
use domain::records::PresignedUrl;
use domain::vocabulary::Vertical;

/// Bounds of the whole operation.
#[derive(Clone, Debug)]
pub struct BulkOptions {
    pub poll_interval: Duration,
    pub wait_timeout: Option<Duration>,
    /// Jobs submitted in all, counting resubmissions after FAILED or expiry.
    pub max_jobs: u32,
    pub concurrent_files: usize,
    pub max_retries: u32,
}

impl Default for BulkOptions {
    fn default() -> Self {
        BulkOptions {
            poll_interval: Duration::from_secs(2),
            wait_timeout: Some(Duration::from_secs(3_600)),
            max_jobs: 4,
            concurrent_files: 4,
            max_retries: 5,
        }
    }
}

/// What a caller can watch while it runs.
#[derive(Debug, Default)]
pub struct BulkProgress {
    /// 0 submitting, 1 running, 2 downloading, 3 done.
    pub phase: AtomicU8,
    pub bytes_total: AtomicU64,
    pub bytes_done: AtomicU64,
    pub jobs: AtomicU64,
}

#[derive(Clone, Debug)]
pub struct BulkOutcome {
    pub files: Vec<PathBuf>,
    /// Bytes transferred by this run (files already present are not counted).
    pub bytes: u64,
    pub submitted: Submitted,
    pub elapsed: Duration,
}

/// Creates the destination folder, once a job has succeeded: a download
/// refused earlier (bad input, a refused token, a closed client) leaves
/// nothing behind, and one whose job lists no file still leaves the folder.
pub async fn create_dest(dest: &Path) -> Result<(), ClientError> {
    tokio::fs::create_dir_all(dest)
        .await
        .map_err(|e| ClientError::BulkJobFailed(format!("cannot create {}: {e}", dest.display())))
}

/// Where each listed file goes, refusing the whole listing if any path is not
/// a plain partition of `dest`.
pub fn plan_files(dest: &Path, files: &[PresignedUrl]) -> Result<Vec<FileTask>, ClientError> {
    let mut tasks = Vec::new();
    let mut per_partition: HashMap<Partition, usize> = HashMap::new();
    for file in files {
        let path = file.path.as_deref().unwrap_or_default();
        let partition = Partition::parse(path).map_err(ClientError::BulkJobFailed)?;
        let url = file.url.clone().ok_or_else(|| {
            ClientError::BulkJobFailed(format!("the bulk file {path:?} has no url"))
        })?;
        let index = per_partition.entry(partition.clone()).or_default();
        let target = dest
            .join(partition.relative_dir())
            .join(file_name(&url, *index));
        *index += 1;
        tasks.push(FileTask {
            url,
            target,
            size: file.size,
        });
    }
    Ok(tasks)
}

async fn succeeded_job(
    http: &Http,
    vertical: &Vertical,
    start: Month,
    end: Month,
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Result<(Submitted, Vec<PresignedUrl>), ClientError> {
    let mut last_error = None;
    while progress.jobs.load(Ordering::Relaxed) < u64::from(options.max_jobs) {
        progress.phase.store(0, Ordering::Relaxed);
        progress.jobs.fetch_add(1, Ordering::Relaxed);
        let submitted = job::submit(http, vertical, start, end).await?;
        progress.phase.store(1, Ordering::Relaxed);
        let waited = job::wait(
            http,
            &submitted.job_id,
            options.poll_interval,
            options.wait_timeout,
            |_: &JobState| {},
        )
        .await;
        match waited {
            Ok(files) => return Ok((submitted, files)),
            Err(ClientError::BulkJobFailed(why)) if why.contains("FAILED") => {
                log::warn!(target: "marketcurves.bulk", "{why}; submitting it again");
                last_error = Some(why);
            }
            Err(other) => return Err(other),
        }
    }
    Err(ClientError::BulkJobFailed(format!(
        "no bulk job succeeded in {} attempts: {}",
        options.max_jobs,
        last_error.unwrap_or_default()
    )))
}

pub async fn bulk_download(
    http: &Http,
    vertical: &Vertical,
    start: Month,
    end: Month,
    dest: &Path,
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Result<BulkOutcome, ClientError> {
    let started = Instant::now();
    let mut transferred = 0;
    loop {
        let (submitted, files) =
            succeeded_job(http, vertical, start, end, options, progress).await?;
        create_dest(dest).await?;
        let tasks = plan_files(dest, &files)?;
        let outcome = download_all(http, &tasks, options, progress).await;
        transferred += outcome.bytes;
        if let Some(error) = outcome.error {
            return Err(error);
        }
        if !outcome.expired {
            progress.phase.store(3, Ordering::Relaxed);
            return Ok(BulkOutcome {
                files: tasks.into_iter().map(|t| t.target).collect(),
                bytes: transferred,
                submitted,
                elapsed: started.elapsed(),
            });
        }
        if progress.jobs.load(Ordering::Relaxed) >= u64::from(options.max_jobs) {
            return Err(ClientError::BulkJobFailed(format!(
                "the download URLs kept expiring; {} jobs submitted",
                options.max_jobs
            )));
        }
        log::warn!(target: "marketcurves.bulk", "download URLs expired; running the job again for fresh ones");
    }
}

/// One round for a job the caller already has: bytes transferred, or why not.
pub async fn download_round(
    http: &Http,
    tasks: &[FileTask],
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Result<u64, ClientError> {
    let round = download_all(http, tasks, options, progress).await;
    if let Some(error) = round.error {
        return Err(error);
    }
    if round.expired {
        return Err(ClientError::BulkJobFailed(
            "the download URLs expired; submit the job again for fresh ones".into(),
        ));
    }
    progress.phase.store(3, Ordering::Relaxed);
    Ok(round.bytes)
}

/// One file's download, boxed so that the downloads can run side by side.
type Fetch<'a> = Pin<Box<dyn Future<Output = Result<u64, DownloadError>> + Send + 'a>>;

struct Round {
    bytes: u64,
    expired: bool,
    error: Option<ClientError>,
}

/// Downloads what is missing; files already complete are skipped.
async fn download_all(
    http: &Http,
    tasks: &[FileTask],
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Round {
    progress.phase.store(2, Ordering::Relaxed);
    let total: u64 = tasks.iter().filter_map(|t| t.size).sum();
    progress.bytes_total.store(total, Ordering::Relaxed);
    let mut missing = Vec::new();
    let mut present = 0;
    for task in tasks {
        if already_done(task).await {
            present += task.size.unwrap_or(0);
        } else {
            missing.push(task);
        }
    }
    progress.bytes_done.store(present, Ordering::Relaxed);
    let mut fetches: Vec<Fetch<'_>> = Vec::new();
    for task in missing {
        let counter = &progress.bytes_done;
        fetches.push(Box::pin(fetch(
            http.sender(),
            task,
            options.max_retries,
            counter,
        )));
    }
    let mut round = Round {
        bytes: 0,
        expired: false,
        error: None,
    };
    // Downloads go to pre-signed URLs, not through `Http::call`: they race the
    // close signal here. A transfer cut short stays under its temporary name.
    let downloads = async {
        let results: Vec<Result<u64, DownloadError>> = stream::iter(fetches)
            .buffer_unordered(options.concurrent_files.max(1))
            .collect()
            .await;
        Ok(results)
    };
    let results = match http.closing().guard(downloads).await {
        Ok(results) => results,
        Err(closed) => {
            round.error = Some(closed);
            return round;
        }
    };
    for result in results {
        match result {
            Ok(bytes) => round.bytes += bytes,
            Err(DownloadError::Expired) => round.expired = true,
            Err(DownloadError::Failed(why)) => {
                round
                    .error
                    .get_or_insert(ClientError::BulkJobFailed(format!(
                        "download failed: {why}"
                    )));
            }
        }
    }
    round
}
