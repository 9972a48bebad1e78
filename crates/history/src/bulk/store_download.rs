//! One file through its pre-signed URL into an object store: streamed into
//! a multipart upload that is completed only once the size and the Parquet
//! footer are checked (`storage::upload`). A break starts the transfer again (a multipart
//! upload cannot resume at a byte), up to the retries allowed. The bearer
//! token is never sent.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream;

use super::download::{refusal, Attempt, DownloadError, FileTask};
use crate::rest::send::{Failure, Sender};
use domain::redact::redact_url;
use places::storage::upload::{stream_to_store, Expected, UploadError};
use places::storage::Location;

/// Fetches `task` into `location`; `counter` grows as bytes arrive, and
/// shrinks again by what an attempt that broke had counted.
pub async fn fetch_to_store(
    sender: &Sender,
    task: &FileTask,
    location: &Location,
    max_retries: u32,
    counter: &AtomicU64,
) -> Result<u64, DownloadError> {
    let key = location.key(&task.relative);
    let shown = redact_url(&task.url);
    let target = location.url(&task.relative);
    let fail = |what: String| DownloadError::failed(format!("{target}: {what} ({shown})"));
    let mut retries = 0;
    loop {
        let response =
            match tokio::time::timeout(sender.timeout, sender.client.get(&task.url).send()).await {
                Err(_) => Err("timed out".to_owned()),
                Ok(Ok(response)) => Ok(response),
                Ok(Err(e)) => match sender.explain(e) {
                    // A certificate or a proxy's refusal: trying again will not help.
                    Failure::Permanent(said) => {
                        return Err(DownloadError::fatal(&target, said, &shown))
                    }
                    Failure::Passing(why) => Err(why),
                },
            };
        let broken = match response {
            Err(why) => why,
            Ok(response) => match response.status().as_u16() {
                200 => {
                    let chunks = stream::unfold(response, |mut response| async move {
                        match tokio::time::timeout(sender.timeout, response.chunk()).await {
                            Err(_) => Some((Err("timed out reading".to_owned()), response)),
                            Ok(Err(e)) => Some((
                                Err(format!("the transfer broke: {}", e.without_url())),
                                response,
                            )),
                            Ok(Ok(None)) => None,
                            Ok(Ok(Some(chunk))) => Some((Ok::<Bytes, String>(chunk), response)),
                        }
                    });
                    let mut counted = 0;
                    let sent = stream_to_store(
                        location.store.as_ref(),
                        &key,
                        Box::pin(chunks),
                        Expected {
                            size: task.size,
                            parquet: true,
                        },
                        |n| {
                            counted += n;
                            counter.fetch_add(n, Ordering::Relaxed);
                        },
                    )
                    .await;
                    match sent {
                        Ok(bytes) => return Ok(bytes),
                        Err(UploadError::Store(e)) => {
                            counter.fetch_sub(counted, Ordering::Relaxed);
                            return Err(fail(format!(
                                "the store refused it: {}",
                                places::storage::describe(&e)
                            )));
                        }
                        Err(UploadError::Size { expected, received }) => {
                            counter.fetch_sub(counted, Ordering::Relaxed);
                            format!("{received} bytes instead of {expected}")
                        }
                        Err(UploadError::Source(why) | UploadError::Content(why)) => {
                            counter.fetch_sub(counted, Ordering::Relaxed);
                            why
                        }
                    }
                }
                status => match refusal(sender, &task.url, status) {
                    Attempt::Expired => return Err(DownloadError::Expired),
                    Attempt::Fatal(said) => {
                        return Err(DownloadError::fatal(&target, said, &shown))
                    }
                    Attempt::Broken(why, _) => why,
                },
            },
        };
        if retries >= max_retries {
            return Err(fail(format!("{broken} after {} attempts", retries + 1)));
        }
        log::warn!(target: "marketcurves.bulk", "{target}: {broken}; starting it again");
        retries += 1;
        tokio::time::sleep(Duration::from_millis(100 * u64::from(retries.min(20)))).await;
    }
}
