//! One file through its pre-signed URL: streamed into a part file
//! (`bulk::part`), resumed after a break with a Range request only under
//! `If-Range` on the version the part holds, checked for size and for a
//! Parquet footer, then renamed to its final name. The bearer token is
//! never sent.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parquet::file::metadata::ParquetMetaDataReader;
use reqwest::header::{CONTENT_RANGE, ETAG, IF_RANGE, LAST_MODIFIED, RANGE};
use tokio::io::AsyncWriteExt;

use super::part::Part;
use crate::rest::send::{Failure, Sender};
use domain::month::Month;
use domain::redact::redact_url;
use places::net::failure::Said;
use places::Advice;

#[derive(Debug)]
pub enum DownloadError {
    /// The URL no longer works (403): the job must be run again.
    Expired,
    /// Why the file failed (its target first), what to do about it as data
    /// (a binding words it), and the redacted address it came from, shown
    /// after the advice.
    Failed {
        why: String,
        advice: Option<Advice>,
        url: Option<String>,
    },
}

impl DownloadError {
    /// A failure in words alone.
    pub(crate) fn failed(why: String) -> DownloadError {
        DownloadError::Failed {
            why,
            advice: None,
            url: None,
        }
    }

    /// A failure of `target` from `url` that retrying would not mend, its
    /// advice kept as data.
    pub(crate) fn fatal(target: impl std::fmt::Display, said: Said, url: &str) -> DownloadError {
        DownloadError::Failed {
            why: format!("{target}: {}", said.words),
            advice: said.advice,
            url: Some(url.to_owned()),
        }
    }
}

/// A file to fetch: where from, where to, and how big it must be.
#[derive(Clone, Debug)]
pub struct FileTask {
    pub url: String,
    /// Where it goes in a local folder.
    pub target: PathBuf,
    /// Its place under the destination, `vertical=…/year=…/month=…/name`:
    /// its key under a store's prefix.
    pub relative: String,
    pub size: Option<u64>,
    /// The month of its partition.
    pub month: Month,
}

/// Whether the target is already there, a plain file of the right size
/// whose Parquet footer reads. One that is not Parquet is renamed aside
/// (`<name>.corrupt`) and reported, so that it is fetched again rather than
/// skipped on every rerun.
pub async fn already_done(task: &FileTask) -> bool {
    let Some(size) = task.size else {
        return false;
    };
    let target = task.target.clone();
    let checked = tokio::task::spawn_blocking(move || {
        let meta = std::fs::symlink_metadata(&target).ok()?;
        if !meta.file_type().is_file() || meta.len() != size {
            return Some(false);
        }
        if let Err(why) = parquet_rows(&target) {
            let aside = target.with_file_name(format!("{}.corrupt", name_of(&target)));
            let moved = std::fs::rename(&target, &aside);
            log::warn!(
                target: "marketcurves.bulk",
                "{} is not a readable Parquet file ({why}); {} and fetched again",
                target.display(),
                match moved {
                    Ok(()) => format!("renamed to {}", aside.display()),
                    Err(e) => format!("could not be renamed aside ({e})"),
                }
            );
            return Some(false);
        }
        Some(true)
    });
    matches!(checked.await, Ok(Some(true)))
}

fn name_of(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("file")
}

/// The rows of the Parquet file at `path`, from its footer: proof that the
/// file is whole and is Parquet.
pub fn parquet_rows(path: &Path) -> Result<u64, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let metadata = ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(|e| e.to_string())?;
    Ok(metadata.file_metadata().num_rows().max(0) as u64)
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(std::io::Error::other)?
}

/// Fetches `task`, retrying breaks up to `max_retries` times. Returns the
/// bytes transferred; `counter` grows as they arrive (and shrinks by the
/// bytes of a part that had to be thrown away).
pub async fn fetch(
    sender: &Sender,
    task: &FileTask,
    max_retries: u32,
    counter: &AtomicU64,
) -> Result<u64, DownloadError> {
    let shown = redact_url(&task.url);
    let fail = |what: String| DownloadError::failed(format!("{}: {what}", task.target.display()));
    if let Some(dir) = task.target.parent() {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|e| fail(format!("cannot create the folder: {e}")))?;
    }
    let target = task.target.clone();
    let mut part = blocking(move || Part::left_over(&target))
        .await
        .map_err(|e| fail(format!("cannot look for an earlier part: {e}")))?;
    if let Some(found) = &part {
        counter.fetch_add(found.len(), Ordering::Relaxed);
    }
    let mut parts = Parts {
        part: &mut part,
        counter,
    };
    let mut transferred = 0;
    let mut retries = 0;
    loop {
        let broken = match fetch_once(sender, task, &mut parts).await {
            Ok(bytes) => {
                transferred += bytes;
                let whole = parts.part.take().expect("a whole part");
                let target = task.target.clone();
                let kept = blocking(move || {
                    if let Err(why) = parquet_rows(whole.path()) {
                        let size = whole.len();
                        whole.remove();
                        let why = format!("the {size} bytes served are not a Parquet file ({why})");
                        return Ok(Err((size, why)));
                    }
                    whole.keep(&target).map(Ok)
                })
                .await
                .map_err(|e| fail(format!("cannot rename into place: {e}")))?;
                match kept {
                    Ok(()) => return Ok(transferred),
                    Err((thrown_away, why)) => {
                        parts.counter.fetch_sub(thrown_away, Ordering::Relaxed);
                        why
                    }
                }
            }
            Err(Attempt::Expired) => return Err(DownloadError::Expired),
            Err(Attempt::Fatal(said)) => {
                return Err(DownloadError::fatal(task.target.display(), said, &shown))
            }
            Err(Attempt::Broken(why, bytes)) => {
                transferred += bytes;
                why
            }
        };
        if retries >= max_retries {
            return Err(fail(format!(
                "{broken} after {} attempts ({shown})",
                retries + 1
            )));
        }
        let next = if parts.resumable() {
            "resuming"
        } else {
            "starting again"
        };
        log::warn!(target: "marketcurves.bulk", "{}: {broken}; {next}", task.target.display());
        retries += 1;
        tokio::time::sleep(Duration::from_millis(100 * u64::from(retries.min(20)))).await;
    }
}

/// The part a download writes into, if any, and the progress counter that
/// counts its bytes.
struct Parts<'a> {
    part: &'a mut Option<Part>,
    counter: &'a AtomicU64,
}

impl Parts<'_> {
    /// Throws the part away (it is removed), uncounting its bytes.
    fn discard(&mut self) {
        if let Some(part) = self.part.take() {
            self.counter.fetch_sub(part.len(), Ordering::Relaxed);
            part.remove();
        }
    }

    /// Where a resume would start, and the version of the file it needs.
    fn resume_point(&self) -> Option<(u64, String)> {
        let part = self.part.as_ref()?;
        let validator = part.validator()?;
        let len = part.len();
        (len > 0).then(|| (len, validator.to_owned()))
    }

    fn resumable(&self) -> bool {
        self.resume_point().is_some()
    }
}

pub(crate) enum Attempt {
    Expired,
    /// Not worth another attempt, with any advice as data.
    Fatal(Said),
    /// Worth resuming; how many bytes this attempt wrote.
    Broken(String, u64),
}

/// What a pre-signed URL's answer other than its content means: expired
/// (403, docs/protocol.md#bulk-download), worth trying again (408, 429,
/// 5xx), or final; a proxy's 407 names the route taken.
pub(crate) fn refusal(sender: &Sender, url: &str, status: u16) -> Attempt {
    match status {
        403 => Attempt::Expired,
        407 => Attempt::Fatal(Said::from(format!(
            "HTTP 407 Proxy Authentication Required{}",
            sender.network.route_note(url)
        ))),
        408 | 429 | 500..=599 => Attempt::Broken(format!("HTTP {status}"), 0),
        _ => Attempt::Fatal(Said::from(format!("HTTP {status}"))),
    }
}

/// The version a response serves: its strong entity tag, else its date of
/// last change (RFC 9110 §13.1.5: what `If-Range` may carry).
fn validator_of(response: &reqwest::Response) -> Option<String> {
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    header(ETAG)
        .filter(|tag| tag.starts_with('"'))
        .or_else(|| header(LAST_MODIFIED))
}

/// Whether a 206 is the rest of the file the part holds: it starts where
/// the part ends, its file is as long as expected, and its version (if it
/// says) is the part's.
fn continues(
    response: &reqwest::Response,
    offset: u64,
    validator: &str,
    size: Option<u64>,
) -> bool {
    let range = response
        .headers()
        .get(CONTENT_RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("bytes "))
        .and_then(|v| v.split_once('/'))
        .and_then(|(span, total)| {
            Some((span.split_once('-')?.0.trim().parse::<u64>().ok()?, total))
        });
    let Some((first, total)) = range else {
        return false;
    };
    let same_total = match (size, total.trim().parse::<u64>()) {
        (Some(size), Ok(total)) => size == total,
        _ => true,
    };
    let same_version = validator_of(response).is_none_or(|v| v == validator);
    first == offset && same_total && same_version
}

/// One request for the file (the rest of it, if the part can be resumed),
/// written into the part. Ok when the body ended with the file whole.
async fn fetch_once(
    sender: &Sender,
    task: &FileTask,
    parts: &mut Parts<'_>,
) -> Result<u64, Attempt> {
    if let (Some(size), Some(part)) = (task.size, parts.part.as_ref()) {
        match part.len().cmp(&size) {
            // A whole part is not kept on its word: its last byte is asked
            // for again under `If-Range`, so a file that changed since comes
            // whole instead.
            std::cmp::Ordering::Equal if size > 0 && part.validator().is_some() => {
                let shortened = part.shorten_to(size - 1);
                if shortened.is_err() {
                    parts.discard();
                }
                parts.counter.fetch_sub(1, Ordering::Relaxed);
            }
            std::cmp::Ordering::Less => {}
            _ => parts.discard(),
        }
    }
    let resume = parts.resume_point();
    if resume.is_none() {
        parts.discard();
    }
    let mut request = sender.client.get(&task.url);
    if let Some((offset, validator)) = &resume {
        request = request
            .header(RANGE, format!("bytes={offset}-"))
            .header(IF_RANGE, validator);
    }
    let response = tokio::time::timeout(sender.timeout, request.send())
        .await
        .map_err(|_| Attempt::Broken("timed out".into(), 0))?
        .map_err(|e| match sender.explain(e) {
            Failure::Permanent(said) => Attempt::Fatal(said),
            Failure::Passing(why) => Attempt::Broken(why, 0),
        })?;
    match (response.status().as_u16(), &resume) {
        (206, Some((offset, validator))) => {
            if !continues(&response, *offset, validator, task.size) {
                parts.discard();
                return Err(Attempt::Broken(
                    "the service answered with another part or version of the file".into(),
                    0,
                ));
            }
        }
        (200, _) => {
            // The whole file, as it is now: a new part for this version.
            parts.discard();
            let target = task.target.clone();
            let validator = validator_of(&response);
            let part = blocking(move || Part::create(&target, validator.as_deref()))
                .await
                .map_err(|e| Attempt::Fatal(Said::from(format!("cannot write: {e}"))))?;
            *parts.part = Some(part);
        }
        (206, None) => {
            return Err(Attempt::Broken(
                "the service sent a part of the file that was not asked for".into(),
                0,
            ))
        }
        (416, _) => {
            // The part does not fit the file served: start again.
            parts.discard();
            return Err(Attempt::Broken("range not satisfiable".into(), 0));
        }
        (status, _) => return Err(refusal(sender, &task.url, status)),
    }
    let part = parts.part.as_ref().expect("a part to write into");
    let file = part
        .appender()
        .map_err(|e| Attempt::Fatal(Said::from(format!("cannot write: {e}"))))?;
    // Each write of a tokio file is a trip to the blocking pool: write in large pieces.
    let mut file = tokio::io::BufWriter::with_capacity(1 << 20, tokio::fs::File::from_std(file));
    let mut response = response;
    let mut written = 0;
    let broke = loop {
        let chunk = tokio::time::timeout(sender.timeout, response.chunk()).await;
        let chunk = match chunk {
            Err(_) => break Some("timed out reading".to_owned()),
            Ok(Err(e)) => break Some(format!("the transfer broke: {}", e.without_url())),
            Ok(Ok(None)) => break None,
            Ok(Ok(Some(chunk))) => chunk,
        };
        file.write_all(&chunk).await.map_err(write_error)?;
        written += chunk.len() as u64;
        parts
            .counter
            .fetch_add(chunk.len() as u64, Ordering::Relaxed);
    };
    // What arrived before a break is kept, for a resume to start after it.
    file.flush().await.map_err(write_error)?;
    drop(file);
    let now = parts.part.as_ref().map_or(0, Part::len);
    if let Some(why) = broke {
        if !parts.resumable() {
            parts.discard();
        }
        return Err(Attempt::Broken(why, written));
    }
    match task.size {
        Some(size) if now < size && parts.resumable() => {
            Err(Attempt::Broken(format!("{now} bytes of {size}"), written))
        }
        Some(size) if now != size => {
            parts.discard();
            Err(Attempt::Broken(
                format!("{now} bytes instead of {size}"),
                written,
            ))
        }
        _ => Ok(written),
    }
}

fn write_error(e: std::io::Error) -> Attempt {
    match e.kind() {
        ErrorKind::StorageFull => Attempt::Fatal(Said::from("the disk is full".to_owned())),
        _ => Attempt::Fatal(Said::from(format!("cannot write: {e}"))),
    }
}
