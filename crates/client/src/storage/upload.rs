//! Writing one object the way a local download writes one file: nothing
//! carries its final key until it is whole and checked. The bytes are
//! streamed into a multipart upload (memory stays bounded whatever the
//! size), the count is checked against the size expected, and only then
//! is the upload completed; on any failure, or if the task is cancelled,
//! it is aborted (`storage::parts`), so no part of it ever becomes an object.

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};

use super::parts::Parts;

/// Bytes gathered into one part (S3 takes parts of 5 MiB or more).
pub const PART_SIZE: usize = 8 * 1024 * 1024;
/// Parts of one object in flight at once.
pub const PARTS_IN_FLIGHT: usize = 4;

/// Why an upload did not complete.
#[derive(Debug)]
pub enum UploadError {
    /// The source broke off; what it said.
    Source(String),
    /// The count differs from the size expected.
    Size { expected: u64, received: u64 },
    /// The store refused a part or the completion.
    Store(object_store::Error),
}

/// Whether `key` is already there with `size` bytes: a rerun skips it.
pub async fn already_there(store: &dyn ObjectStore, key: &StorePath, size: Option<u64>) -> bool {
    match (size, store.head(key).await) {
        (Some(size), Ok(meta)) => meta.size == size,
        _ => false,
    }
}

/// Streams `source` into `key`, completed only if it ends with `size`
/// bytes (when known); `counted` is told of each chunk as it goes.
pub async fn stream_to_store<S, E>(
    store: &dyn ObjectStore,
    key: &StorePath,
    mut source: S,
    size: Option<u64>,
    mut counted: impl FnMut(u64),
) -> Result<u64, UploadError>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    E: std::fmt::Display,
{
    let upload = store.put_multipart(key).await.map_err(UploadError::Store)?;
    let mut parts = Parts::new(upload, PART_SIZE, PARTS_IN_FLIGHT);
    let mut received = 0u64;
    let failure = loop {
        let Some(chunk) = source.next().await else {
            break None;
        };
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) => break Some(UploadError::Source(e.to_string())),
        };
        received += chunk.len() as u64;
        counted(chunk.len() as u64);
        if let Err(e) = parts.put(chunk).await {
            break Some(UploadError::Store(e));
        }
    };
    let failure = failure.or_else(|| match size {
        Some(expected) if expected != received => Some(UploadError::Size { expected, received }),
        _ => None,
    });
    let failure = match failure {
        None => parts.complete().await.err().map(UploadError::Store),
        failure => failure,
    };
    if let Some(failure) = failure {
        parts.abort().await;
        return Err(failure);
    }
    Ok(received)
}

#[cfg(test)]
#[path = "upload_tests.rs"]
mod tests;
