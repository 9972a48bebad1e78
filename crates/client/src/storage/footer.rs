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
    let trailer = tail.slice(tail.len() - TRAILER as usize..);
    if &trailer[4..] != b"PAR1" {
        return Err(format!("{key} does not end as a Parquet file does"));
    }
    let length = u64::from(u32::from_le_bytes(
        trailer[..4].try_into().expect("4 bytes"),
    ));
    let start = size
        .checked_sub(TRAILER + length)
        .ok_or_else(|| format!("{key} has a footer longer than itself"))?;
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

#[cfg(test)]
#[path = "footer_tests.rs"]
mod tests;
