//! A bulk download end to end: submit, wait, check every path, download
//! concurrently, count the rows, resubmit a FAILED job, and run the job again
//! for fresh URLs when they expire mid-download (docs/protocol.md#bulk-download).

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::download::{already_done, fetch, DownloadError, FileTask};
use super::job::{self, JobRequest, JobState, Submitted};
use super::options::{BulkOptions, BulkProgress, Phase};
use super::partition::{file_name, unique_name, Partition};
use super::read::count_rows;
use super::store_download::fetch_to_store;
use crate::rest::http::Http;
use domain::month::Month;
use domain::records::PresignedUrl;
use places::storage::footer::rows_in_object;
use places::storage::upload::already_there;
use places::storage::Place;
use places::ClientError;

/// Objects whose footers are read at once to count the rows.
const FOOTERS_AT_ONCE: usize = 8;

/// A bulk download's request, checked before anything is sent or created.
#[derive(Clone, Debug)]
pub struct BulkRequest {
    pub job: JobRequest,
    pub dest: Place,
}

impl BulkRequest {
    /// A vertical in any spelling, months written `YYYY-MM`, and a folder to
    /// download into.
    pub fn new(
        vertical: &str,
        start: &str,
        end: &str,
        dest: impl Into<PathBuf>,
    ) -> Result<BulkRequest, ClientError> {
        BulkRequest::to(vertical, start, end, Place::folder_to_write("dest", dest)?)
    }

    /// The same, into any place: a folder or an object store prefix.
    pub fn to(
        vertical: &str,
        start: &str,
        end: &str,
        dest: Place,
    ) -> Result<BulkRequest, ClientError> {
        Ok(BulkRequest {
            job: JobRequest::new(vertical, start, end)?,
            dest,
        })
    }
}

/// What a bulk download produced.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BulkResult {
    /// The job whose files these are (the last one submitted).
    pub job: Submitted,
    pub files: Vec<PathBuf>,
    /// The objects' URLs, for a download into an object store (then
    /// `files` is empty).
    pub objects: Vec<String>,
    /// Bytes transferred by this run (files already present are not counted).
    pub bytes: u64,
    /// Rows in all the files, from their Parquet footers.
    pub rows: u64,
    /// From the start to the last byte.
    pub elapsed: Duration,
    /// Jobs submitted, counting resubmissions after FAILED or expired URLs.
    pub jobs: u64,
    /// Months of the effective range for which the job listed no file: the
    /// service holds nothing there for this account, or lost it. The caller
    /// is warned; a job with no file at all is otherwise a quiet success.
    pub months_without_files: Vec<Month>,
}

/// Creates the destination folder, once a job has succeeded: a download
/// refused earlier (bad input, a refused token, a closed client) leaves
/// nothing behind, and one whose job lists no file still leaves the folder.
async fn create_dest(dest: &Path) -> Result<(), ClientError> {
    tokio::fs::create_dir_all(dest)
        .await
        .map_err(|e| ClientError::bulk_failed(format!("cannot create {}: {e}", dest.display())))
}

/// Where each listed file goes, refusing the whole listing if any path is not
/// a plain partition of `dest`.
pub fn plan_files(dest: &Path, files: &[PresignedUrl]) -> Result<Vec<FileTask>, ClientError> {
    let mut tasks = Vec::new();
    let mut per_partition: HashMap<Partition, (usize, HashSet<String>)> = HashMap::new();
    for file in files {
        let path = file.path.as_deref().unwrap_or_default();
        let partition = Partition::parse(path).map_err(ClientError::bulk_failed)?;
        let url = file.url.clone().ok_or_else(|| {
            ClientError::bulk_failed(format!("the bulk file {path:?} has no url"))
        })?;
        let (index, taken) = per_partition.entry(partition.clone()).or_default();
        let name = unique_name(file_name(&url, *index), taken);
        let target = dest.join(partition.relative_dir()).join(&name);
        let relative = format!(
            "{}/{name}",
            partition
                .relative_dir()
                .to_string_lossy()
                .replace('\\', "/")
        );
        *index += 1;
        tasks.push(FileTask {
            url,
            target,
            relative,
            size: file.size,
            month: partition.month,
        });
    }
    Ok(tasks)
}

/// The folder made (for a local download) and every path checked: the
/// files to fetch.
async fn prepare(dest: &Place, files: &[PresignedUrl]) -> Result<Vec<FileTask>, ClientError> {
    match dest {
        Place::Folder(folder) => {
            create_dest(folder).await?;
            plan_files(folder, files)
        }
        Place::Store(_) => plan_files(Path::new(""), files),
    }
}

async fn succeeded_job(
    http: &Http,
    request: &JobRequest,
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Result<(Submitted, Vec<PresignedUrl>), ClientError> {
    let mut last_error = None;
    while progress.jobs() < u64::from(options.max_jobs) {
        progress.enter(Phase::Submitting);
        progress.jobs.fetch_add(1, Ordering::Relaxed);
        let submitted = job::submit(http, request).await?;
        progress.enter(Phase::Running);
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
            Err(failed @ ClientError::BulkJobFailed { .. })
                if failed.to_string().contains("FAILED") =>
            {
                let why = failed.to_string();
                log::warn!(target: "marketcurves.bulk", "{why}; submitting it again");
                last_error = Some(why);
            }
            Err(other) => return Err(other),
        }
    }
    Err(ClientError::bulk_failed(format!(
        "no bulk job succeeded in {} attempts: {}",
        options.max_jobs,
        last_error.unwrap_or_default()
    )))
}

/// Submits, waits, downloads and counts: a FAILED job is submitted again,
/// and expired URLs are renewed by running the job again, up to
/// `options.max_jobs` jobs in all.
pub async fn download(
    http: &Http,
    request: &BulkRequest,
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Result<BulkResult, ClientError> {
    let started = Instant::now();
    let mut transferred = 0;
    request.dest.check().await?;
    loop {
        let (submitted, files) = succeeded_job(http, &request.job, options, progress).await?;
        let tasks = prepare(&request.dest, &files).await?;
        let round = download_all(http, &request.dest, &tasks, options, progress).await;
        transferred += round.bytes;
        if let Some(error) = round.error {
            return Err(error);
        }
        if !round.expired {
            let jobs = progress.jobs();
            let done = Done {
                bytes: transferred,
                started,
                jobs,
            };
            return finish(submitted, &request.dest, tasks, done, progress).await;
        }
        if progress.jobs() >= u64::from(options.max_jobs) {
            return Err(ClientError::bulk_failed(format!(
                "the download URLs kept expiring; {} jobs submitted",
                options.max_jobs
            )));
        }
        log::warn!(target: "marketcurves.bulk", "download URLs expired; running the job again for fresh ones");
    }
}

/// Waits for a job the caller submitted, then downloads and counts its
/// files. Expired URLs are an error here: only [`download`] runs a job again.
pub async fn download_job(
    http: &Http,
    job: &Submitted,
    dest: &Place,
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Result<BulkResult, ClientError> {
    let started = Instant::now();
    dest.check().await?;
    progress.enter(Phase::Running);
    let files = job::wait(
        http,
        &job.job_id,
        options.poll_interval,
        options.wait_timeout,
        |_: &JobState| {},
    )
    .await?;
    let tasks = prepare(dest, &files).await?;
    let round = download_all(http, dest, &tasks, options, progress).await;
    if let Some(error) = round.error {
        return Err(error);
    }
    if round.expired {
        return Err(ClientError::bulk_failed(
            "the download URLs expired; submit the job again for fresh ones",
        ));
    }
    let done = Done {
        bytes: round.bytes,
        started,
        jobs: 1,
    };
    finish(job.clone(), dest, tasks, done, progress).await
}

/// What a finished download did: bytes moved, since when, with how many jobs.
struct Done {
    bytes: u64,
    started: Instant,
    jobs: u64,
}

/// The result once every file is in place; the rows come from the footers.
async fn finish(
    job: Submitted,
    dest: &Place,
    tasks: Vec<FileTask>,
    done: Done,
    progress: &BulkProgress,
) -> Result<BulkResult, ClientError> {
    let elapsed = done.started.elapsed();
    progress.enter(Phase::Done);
    let (first, last) = job.effective;
    let months_without_files: Vec<Month> = Month::range(first, last)
        .filter(|month| !tasks.iter().any(|t| t.month == *month))
        .collect();
    if !months_without_files.is_empty() {
        log::warn!(
            target: "marketcurves.bulk",
            "job {}: no file for {} of the {first}..{last} months asked for",
            job.job_id,
            months_without_files.len()
        );
    }
    let (files, objects, rows) = match dest {
        Place::Folder(_) => {
            let files: Vec<PathBuf> = tasks.into_iter().map(|t| t.target).collect();
            let rows = count_rows(files.clone()).await?;
            (files, Vec::new(), rows)
        }
        Place::Store(location) => {
            // One small read per object, several at once: reading them one
            // after another made the row count cost a round trip per file.
            let objects: Vec<(String, Option<u64>)> =
                tasks.iter().map(|t| (t.relative.clone(), t.size)).collect();
            let store = location.store.as_ref();
            let counts: Vec<u64> = stream::iter(objects)
                .map(|(relative, size)| async move {
                    let key = location.key(&relative);
                    rows_in_object(store, &key, size).await.map_err(|why| {
                        ClientError::bulk_failed(format!("{}: {why}", location.url(&relative)))
                    })
                })
                .buffered(FOOTERS_AT_ONCE)
                .try_collect()
                .await?;
            let rows = counts.iter().sum();
            let objects = tasks.iter().map(|t| location.url(&t.relative)).collect();
            (Vec::new(), objects, rows)
        }
    };
    Ok(BulkResult {
        job,
        files,
        objects,
        bytes: done.bytes,
        rows,
        elapsed,
        jobs: done.jobs,
        months_without_files,
    })
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
    dest: &Place,
    tasks: &[FileTask],
    options: &BulkOptions,
    progress: &BulkProgress,
) -> Round {
    progress.enter(Phase::Downloading);
    let total: u64 = tasks.iter().filter_map(|t| t.size).sum();
    progress.bytes_total.store(total, Ordering::Relaxed);
    let mut missing = Vec::new();
    let mut present = 0;
    for task in tasks {
        let done = match dest {
            Place::Folder(_) => already_done(task).await,
            Place::Store(location) => {
                let key = location.key(&task.relative);
                already_there(location.store.as_ref(), &key, task.size).await
            }
        };
        if done {
            present += task.size.unwrap_or(0);
        } else {
            missing.push(task);
        }
    }
    progress.bytes_done.store(present, Ordering::Relaxed);
    let mut fetches: Vec<Fetch<'_>> = Vec::new();
    for task in missing {
        let counter = &progress.bytes_done;
        let sender = http.sender();
        match dest {
            Place::Folder(_) => {
                fetches.push(Box::pin(fetch(sender, task, options.max_retries, counter)))
            }
            Place::Store(location) => fetches.push(Box::pin(fetch_to_store(
                sender,
                task,
                location,
                options.max_retries,
                counter,
            ))),
        }
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
            Err(DownloadError::Failed { why, advice, url }) => {
                round.error.get_or_insert(ClientError::BulkJobFailed {
                    job_id: None,
                    reason: format!("download failed: {why}"),
                    advice,
                    url,
                });
            }
        }
    }
    round
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
