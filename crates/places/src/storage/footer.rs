//! A Parquet object's footer alone: one ranged read of the object's tail
//! (two if the footer is bigger than the tail read), never the whole object.

use bytes::Bytes;
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};

/// The Parquet trailer: a 4-byte footer length, then `PAR1`.
const TRAILER: u64 = 8;
/// Bytes read from the end at first: a bulk file's footer takes a few kB,
/// so this one read brings the trailer and the footer with it (as Parquet
/// readers prefetch the tail), where reading the trailer first costs a
/// request more per file.
const TAIL: u64 = 64 * 1024;

/// The rows of the Parquet object at `key`, of `size` bytes if known (else
/// asked of the store).
pub async fn rows_in_object(
    store: &dyn ObjectStore,
    key: &StorePath,
    size: Option<u64>,
) -> Result<u64, String> {
    let metadata = metadata_of_object(store, key, size).await?;
    Ok(metadata.file_metadata().num_rows().max(0) as u64)
}

/// The footer of the Parquet object at `key`, of `size` bytes if known
/// (else asked of the store).
pub async fn metadata_of_object(
    store: &dyn ObjectStore,
    key: &StorePath,
    size: Option<u64>,
) -> Result<ParquetMetaData, String> {
    let size = match size {
        Some(size) => size,
        None => store.head(key).await.map_err(|e| e.to_string())?.size,
    };
    if size < TRAILER {
        return Err(format!("{key} is too short to be Parquet ({size} bytes)"));
    }
    let tail_start = size.saturating_sub(TAIL);
    let tail = store
        .get_range(key, tail_start..size)
        .await
        .map_err(|e| e.to_string())?;
    if tail.len() as u64 != size - tail_start {
        return Err(format!("{key} is not the {size} bytes expected"));
    }
    let start = footer_start(&tail, size).map_err(|why| format!("{key} {why}"))?;
    let footer: Bytes = if start >= tail_start {
        tail.slice((start - tail_start) as usize..tail.len() - TRAILER as usize)
    } else {
        store
            .get_range(key, start..size - TRAILER)
            .await
            .map_err(|e| e.to_string())?
    };
    ParquetMetaDataReader::decode_metadata(&footer).map_err(|e| e.to_string())
}

/// Where the footer of a Parquet file of `size` bytes starts, from its
/// last bytes `tail` (at least the trailer).
fn footer_start(tail: &[u8], size: u64) -> Result<u64, String> {
    if size < TRAILER || (tail.len() as u64) < TRAILER {
        return Err(format!("is too short to be Parquet ({size} bytes)"));
    }
    let trailer = &tail[tail.len() - TRAILER as usize..];
    if &trailer[4..] != b"PAR1" {
        return Err("does not end as a Parquet file does".into());
    }
    let length = u64::from(u32::from_le_bytes(
        trailer[..4].try_into().expect("4 bytes"),
    ));
    size.checked_sub(TRAILER + length)
        .ok_or_else(|| "has a footer longer than itself".into())
}

/// Whether the last bytes `tail` of a file of `size` bytes end it as a
/// Parquet file: a trailer, and a footer that decodes. A footer longer
/// than `tail` is not checked here (Ok).
pub fn check_tail(tail: &[u8], size: u64) -> Result<(), String> {
    let start = footer_start(tail, size)?;
    let tail_start = size - tail.len() as u64;
    if start < tail_start {
        return Ok(());
    }
    let footer = &tail[(start - tail_start) as usize..tail.len() - TRAILER as usize];
    ParquetMetaDataReader::decode_metadata(footer)
        .map(|_| ())
        .map_err(|e| format!("has a footer that does not decode ({e})"))
}

#[cfg(test)]
#[path = "footer_tests.rs"]
mod tests;
