//! One file through its pre-signed URL: streamed to a temporary name,
//! resumed with a Range request after a break, checked for size, then
//! renamed. The bearer token is never sent.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reqwest::header::RANGE;
use tokio::io::AsyncWriteExt;

use crate::rest::send::{Failure, Sender};
use domain::redact::redact_url;

#[derive(Debug)]
pub enum DownloadError {
    /// The URL no longer works (403): the job must be run again.
    Expired,
    Failed(String),
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
}

fn part_name(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file");
    target.with_file_name(format!(".{name}.part"))
}

async fn file_len(path: &Path) -> u64 {
    tokio::fs::metadata(path)
        .await
        .map(|m| m.len())
        .unwrap_or(0)
}

/// Whether the target is already there with the right size.
pub async fn already_done(task: &FileTask) -> bool {
    match (task.size, tokio::fs::metadata(&task.target).await) {
        (Some(size), Ok(meta)) => meta.is_file() && meta.len() == size,
        _ => false,
    }
}

/// Fetches `task`, retrying breaks up to `max_retries` times. Returns the
/// bytes transferred; `counter` grows as they arrive.
pub async fn fetch(
    sender: &Sender,
    task: &FileTask,
    max_retries: u32,
    counter: &AtomicU64,
) -> Result<u64, DownloadError> {
    let shown = redact_url(&task.url);
    let fail = |what: String| DownloadError::Failed(format!("{}: {what}", task.target.display()));
    if let Some(dir) = task.target.parent() {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|e| fail(format!("cannot create the folder: {e}")))?;
    }
    let part = part_name(&task.target);
    let mut transferred = 0;
    let mut retries = 0;
    loop {
        let offset = file_len(&part).await;
        if task.size.is_some_and(|size| offset >= size) {
            if task.size == Some(offset) {
                break;
            }
            let _ = tokio::fs::remove_file(&part).await;
            continue;
        }
        match fetch_from(sender, task, &part, offset, counter).await {
            Ok(bytes) => {
                transferred += bytes;
                let now = file_len(&part).await;
                if task.size.is_none_or(|size| now == size) {
                    break;
                }
            }
            Err(Attempt::Expired) => return Err(DownloadError::Expired),
            Err(Attempt::Fatal(why)) => return Err(fail(format!("{why} ({shown})"))),
            Err(Attempt::Broken(why, bytes)) => {
                transferred += bytes;
                if retries >= max_retries {
                    return Err(fail(format!(
                        "{why} after {} attempts ({shown})",
                        retries + 1
                    )));
                }
                log::warn!(target: "marketcurves.bulk", "{}: {why}; resuming", task.target.display());
            }
        }
        if retries >= max_retries {
            return Err(fail(format!(
                "incomplete after {} attempts ({shown})",
                retries + 1
            )));
        }
        retries += 1;
        tokio::time::sleep(Duration::from_millis(100 * u64::from(retries.min(20)))).await;
    }
    let got = file_len(&part).await;
    if let Some(size) = task.size {
        if got != size {
            return Err(fail(format!("{got} bytes instead of {size}")));
        }
    }
    tokio::fs::rename(&part, &task.target)
        .await
        .map_err(|e| fail(format!("cannot rename into place: {e}")))?;
    Ok(transferred)
}

pub(crate) enum Attempt {
    Expired,
    Fatal(String),
    /// Worth resuming; how many bytes this attempt wrote.
    Broken(String, u64),
}

/// What a pre-signed URL's answer other than its content means: expired
/// (403, docs/protocol.md#bulk-download), worth trying again (408, 429,
/// 5xx), or final; a proxy's 407 names the route taken.
pub(crate) fn refusal(sender: &Sender, url: &str, status: u16) -> Attempt {
    match status {
        403 => Attempt::Expired,
        407 => Attempt::Fatal(format!(
            "HTTP 407 Proxy Authentication Required{}",
            sender.network.route_note(url)
        )),
        408 | 429 | 500..=599 => Attempt::Broken(format!("HTTP {status}"), 0),
        _ => Attempt::Fatal(format!("HTTP {status}")),
    }
}

async fn fetch_from(
    sender: &Sender,
    task: &FileTask,
    part: &Path,
    offset: u64,
    counter: &AtomicU64,
) -> Result<u64, Attempt> {
    let mut request = sender.client.get(&task.url);
    if offset > 0 {
        request = request.header(RANGE, format!("bytes={offset}-"));
    }
    let response = tokio::time::timeout(sender.timeout, request.send())
        .await
        .map_err(|_| Attempt::Broken("timed out".into(), 0))?
        .map_err(|e| match sender.explain(e) {
            Failure::Permanent(why) => Attempt::Fatal(why),
            Failure::Passing(why) => Attempt::Broken(why, 0),
        })?;
    let status = response.status().as_u16();
    let append = match status {
        206 => true,
        200 => false,
        416 => {
            // Our partial file does not fit the one served: start again.
            let _ = tokio::fs::remove_file(part).await;
            return Err(Attempt::Broken("range not satisfiable".into(), 0));
        }
        status => return Err(refusal(sender, &task.url, status)),
    };
    let file = tokio::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(part)
        .await
        .map_err(|e| Attempt::Fatal(format!("cannot write: {e}")))?;
    // Each write of a tokio file is a trip to the blocking pool: write in large pieces.
    let mut file = tokio::io::BufWriter::with_capacity(1 << 20, file);
    let mut response = response;
    let mut written = 0;
    loop {
        let chunk = tokio::time::timeout(sender.timeout, response.chunk()).await;
        let chunk = match chunk {
            Err(_) => return Err(Attempt::Broken("timed out reading".into(), written)),
            Ok(Err(e)) => {
                return Err(Attempt::Broken(
                    format!("the transfer broke: {}", e.without_url()),
                    written,
                ))
            }
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => chunk,
        };
        file.write_all(&chunk).await.map_err(|e| match e.kind() {
            ErrorKind::StorageFull => Attempt::Fatal("the disk is full".into()),
            _ => Attempt::Fatal(format!("cannot write: {e}")),
        })?;
        written += chunk.len() as u64;
        counter.fetch_add(chunk.len() as u64, Ordering::Relaxed);
    }
    file.flush()
        .await
        .map_err(|e| Attempt::Fatal(format!("cannot write: {e}")))?;
    Ok(written)
}
