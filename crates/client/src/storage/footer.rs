//! A Parquet object's footer alone: two small ranged reads (the footer's
//! length, then the footer), never the whole object.

use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};

/// The Parquet trailer: a 4-byte footer length, then `PAR1`.
const TRAILER: u64 = 8;

pub async fn rows_in_object(store: &dyn ObjectStore, key: &StorePath) -> Result<u64, String> {
    let metadata = metadata_of_object(store, key).await?;
    Ok(metadata.file_metadata().num_rows().max(0) as u64)
}

pub async fn metadata_of_object(
    store: &dyn ObjectStore,
    key: &StorePath,
) -> Result<ParquetMetaData, String> {
    let size = store.head(key).await.map_err(|e| e.to_string())?.size;
    if size < TRAILER {
        return Err(format!("{key} is too short to be Parquet ({size} bytes)"));
    }
    let trailer = store
        .get_range(key, size - TRAILER..size)
        .await
        .map_err(|e| e.to_string())?;
    if &trailer[4..] != b"PAR1" {
        return Err(format!("{key} does not end as a Parquet file does"));
    }
    let length = u64::from(u32::from_le_bytes(
        trailer[..4].try_into().expect("4 bytes"),
    ));
    let start = size
        .checked_sub(TRAILER + length)
        .ok_or_else(|| format!("{key} has a footer longer than itself"))?;
    let footer = store
        .get_range(key, start..size - TRAILER)
        .await
        .map_err(|e| e.to_string())?;
    ParquetMetaDataReader::decode_metadata(&footer).map_err(|e| e.to_string())
}

#[cfg(test)]
#[path = "footer_tests.rs"]
mod tests;
