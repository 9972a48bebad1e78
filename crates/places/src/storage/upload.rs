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
    /// The bytes are not what they must be (not a Parquet file).
    Content(String),
}

/// Bytes kept from the end of a Parquet stream to check its footer before
/// the object is completed: a bulk file's footer takes a few kB.
const TAIL_KEPT: usize = 256 * 1024;

/// Whether `key` is already there with `size` bytes: a rerun skips it.
pub async fn already_there(store: &dyn ObjectStore, key: &StorePath, size: Option<u64>) -> bool {
    match (size, store.head(key).await) {
        (Some(size), Ok(meta)) => meta.size == size,
        _ => false,
    }
}

/// What an upload must be to be completed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expected {
    /// Its length in bytes, when known.
    pub size: Option<u64>,
    /// Whether it must end as a Parquet file does, with a footer that decodes.
    pub parquet: bool,
}

/// Streams `source` into `key`, completed only if it is what `expected`
/// says; `counted` is told of each chunk as it goes.
pub async fn stream_to_store<S, E>(
    store: &dyn ObjectStore,
    key: &StorePath,
    mut source: S,
    expected: Expected,
    mut counted: impl FnMut(u64),
) -> Result<u64, UploadError>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    E: std::fmt::Display,
{
    let Expected { size, parquet } = expected;
    let mut tail: Vec<u8> = Vec::new();
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
        if parquet {
            keep_tail(&mut tail, &chunk);
        }
        if let Err(e) = parts.put(chunk).await {
            break Some(UploadError::Store(e));
        }
    };
    let failure = failure
        .or_else(|| match size {
            Some(expected) if expected != received => {
                Some(UploadError::Size { expected, received })
            }
            _ => None,
        })
        .or_else(|| {
            let checked = parquet.then(|| super::footer::check_tail(&tail, received));
            checked?
                .err()
                .map(|why| UploadError::Content(format!("the {received} bytes {why}")))
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

/// Keeps the last `TAIL_KEPT` bytes seen (up to twice that between trims).
fn keep_tail(tail: &mut Vec<u8>, chunk: &[u8]) {
    tail.extend_from_slice(chunk);
    if tail.len() > 2 * TAIL_KEPT {
        tail.drain(..tail.len() - TAIL_KEPT);
    }
}

#[cfg(test)]
#[path = "upload_tests.rs"]
mod tests;
