//! Reading a bulk dataset from object storage: the objects under the prefix
//! listed once, the partitions asked for fetched (a few at once) and read
//! as a local file is. The table is the one a local read of the same files
//! gives.

use bytes::Bytes;
use futures_util::stream::{StreamExt, TryStreamExt};
use object_store::path::Path as StorePath;
use object_store::{ObjectMeta, ObjectStoreExt};

use super::partition::Partition;
use super::read::{join_files, read_parquet, Selection};
use domain::arrow::Table;
use places::storage::{store_error, Location, Place};
use places::ClientError;

/// Objects fetched at once.
const FETCHES: usize = 8;

/// The partition of an object, and whether it is a data file: the three
/// partition folders right under the prefix, then a `.parquet` name that
/// is not a temporary's.
fn partition_of(prefix: &StorePath, object: &StorePath) -> Option<Partition> {
    let parts: Vec<String> = object
        .prefix_match(prefix)?
        .map(|part| part.as_ref().to_owned())
        .collect();
    let [vertical, year, month, name] = parts.as_slice() else {
        return None;
    };
    if !name.ends_with(".parquet") || name.starts_with('.') {
        return None;
    }
    Partition::parse(&format!("{vertical}/{year}/{month}")).ok()
}

/// The selected partitions' objects, in partition order.
async fn find_objects(
    location: &Location,
    selection: &Selection,
) -> Result<Vec<(Partition, ObjectMeta)>, ClientError> {
    let listed: Vec<ObjectMeta> = location
        .store
        .list(Some(&location.prefix))
        .try_collect()
        .await
        .map_err(|e| store_error(location, &e))?;
    let mut found: Vec<(Partition, ObjectMeta)> = listed
        .into_iter()
        .filter_map(|meta| Some((partition_of(&location.prefix, &meta.location)?, meta)))
        .filter(|(partition, _)| selection.wants(partition))
        .collect();
    found.sort_by(|a, b| {
        (&a.0.vertical, a.0.month, a.1.location.as_ref()).cmp(&(
            &b.0.vertical,
            b.0.month,
            b.1.location.as_ref(),
        ))
    });
    Ok(found)
}

/// Reads the selected partitions of a dataset wherever it is: a local
/// folder, or a prefix in an object store.
pub async fn read_bulk_at(place: Place, selection: Selection) -> Result<Table, ClientError> {
    match place {
        Place::Folder(path) => super::read::read_bulk(path, selection).await,
        Place::Store(location) => read_bulk_store(location, selection).await,
    }
}

/// Reads the selected partitions under `location` into one table.
pub async fn read_bulk_store(
    location: Location,
    selection: Selection,
) -> Result<Table, ClientError> {
    let objects = find_objects(&location, &selection).await?;
    let parse_json = selection.parse_json;
    let location = &location;
    let files = futures_util::stream::iter(objects)
        .map(|(partition, meta)| async move {
            let name = format!(
                "{}/{}",
                location.shown.trim_end_matches('/'),
                relative(location, &meta)
            );
            let bytes: Bytes = location
                .store
                .get(&meta.location)
                .await
                .map_err(|e| store_error(location, &e))?
                .bytes()
                .await
                .map_err(|e| store_error(location, &e))?;
            tokio::task::spawn_blocking(move || read_parquet(&partition, bytes, &name, parse_json))
                .await
                .map_err(|e| {
                    ClientError::internal("a blocking task of the bulk read ended abnormally", e)
                })?
        })
        .buffered(FETCHES)
        .try_collect()
        .await?;
    join_files(files)
}

/// The object's key below the prefix.
fn relative(location: &Location, meta: &ObjectMeta) -> String {
    meta.location
        .prefix_match(&location.prefix)
        .map(|parts| {
            parts
                .map(|p| p.as_ref().to_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_else(|| meta.location.to_string())
}

#[cfg(test)]
#[path = "read_store_tests.rs"]
mod tests;
