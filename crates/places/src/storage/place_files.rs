//! The files of a place, behind the few operations its writers and
//! readers need (the recorder, its checkpoint and compaction, the tick
//! reader). Every write is whole or absent: in a folder through the one
//! whole-file writer, synced (`whole_file`, `Durability::Synced`: what is
//! written here exists nowhere else); on a store a single PUT, or a
//! multipart upload completed only once every part is in (`upload`).

use std::path::Path;

use bytes::Bytes;
use futures_util::TryStreamExt;
use object_store::{ObjectStoreExt, PutPayload};
use parquet::file::metadata::ParquetMetaData;

use super::footer::metadata_of_object;
use super::upload::{stream_to_store, Expected, UploadError, PART_SIZE};
use super::whole_file::{create_folder, is_temporary, write_bytes, Durability};
use super::{describe, Operation, Place, PlaceError};

impl Place {
    /// `doing` failed on the file `name` in this place, because of `error`.
    pub fn failed(
        &self,
        doing: Operation,
        name: &str,
        error: impl std::fmt::Display,
    ) -> PlaceError {
        let shown = self.shown();
        let sep = if shown.ends_with('/') { "" } else { "/" };
        PlaceError::new(format!("{shown}{sep}{name}"), doing, error)
    }

    /// Refuses to write or delete `name` through a link (a folder or the
    /// file itself): what a link points to is not the place's.
    fn refuse_link(&self, root: &Path, doing: Operation, name: &str) -> Result<(), PlaceError> {
        match super::survey::link_on_the_way(root, name) {
            Some(link) => Err(self.failed(
                doing,
                name,
                format!("{link} is a symbolic link, and the lake is never written or deleted through one"),
            )),
            None => Ok(()),
        }
    }

    /// Writes `name` whole, replacing what was there.
    pub async fn put(&self, name: &str, bytes: Bytes) -> Result<(), PlaceError> {
        match self {
            Place::Folder(root) => {
                self.refuse_link(root, Operation::Write, name)?;
                let path = root.join(name);
                blocking(move || write_bytes(&path, Durability::Synced, &bytes))
                    .await
                    .map_err(|e| self.failed(Operation::Write, name, e))
            }
            Place::Store(location) => {
                let key = location.key(name);
                let store = location.store.as_ref();
                if bytes.len() <= PART_SIZE {
                    store
                        .put(&key, PutPayload::from_bytes(bytes))
                        .await
                        .map(drop)
                        .map_err(|e| self.failed(Operation::Write, name, describe(&e)))
                } else {
                    let size = bytes.len() as u64;
                    let chunks = bytes_in_parts(bytes);
                    stream_to_store(
                        store,
                        &key,
                        chunks,
                        Expected {
                            size: Some(size),
                            parquet: false,
                        },
                        |_| {},
                    )
                    .await
                    .map(drop)
                    .map_err(|e| self.failed(Operation::Write, name, upload_error(&e)))
                }
            }
        }
    }

    pub async fn get(&self, name: &str) -> Result<Option<Bytes>, PlaceError> {
        match self {
            Place::Folder(root) => {
                let path = root.join(name);
                match blocking(move || std::fs::read(&path)).await {
                    Ok(bytes) => Ok(Some(Bytes::from(bytes))),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(self.failed(Operation::Read, name, e)),
                }
            }
            Place::Store(location) => {
                let key = location.key(name);
                match location.store.get(&key).await {
                    Ok(got) => got
                        .bytes()
                        .await
                        .map(Some)
                        .map_err(|e| self.failed(Operation::Read, name, describe(&e))),
                    Err(object_store::Error::NotFound { .. }) => Ok(None),
                    Err(e) => Err(self.failed(Operation::Read, name, describe(&e))),
                }
            }
        }
    }

    /// The Parquet footer of `name`, read alone.
    pub async fn footer(&self, name: &str) -> Result<ParquetMetaData, PlaceError> {
        match self {
            Place::Folder(root) => {
                let path = root.join(name);
                blocking(move || local_footer(&path))
                    .await
                    .map_err(|e| self.failed(Operation::Read, name, e))
            }
            Place::Store(location) => {
                let key = location.key(name);
                metadata_of_object(location.store.as_ref(), &key, None)
                    .await
                    .map_err(|e| self.failed(Operation::Read, name, e))
            }
        }
    }

    /// Every name under the destination, relative to it, hidden ones too.
    pub async fn list(&self) -> Result<Vec<String>, PlaceError> {
        self.list_under("").await
    }

    /// Every name in `folder` (relative to the destination; "" for all)
    /// and below, relative to the destination.
    pub async fn list_under(&self, folder: &str) -> Result<Vec<String>, PlaceError> {
        let folder = folder.trim_matches('/');
        let relative = |name: String| match folder {
            "" => name,
            _ => format!("{folder}/{name}"),
        };
        match self {
            Place::Folder(root) => {
                let under = root.join(folder);
                let names = blocking(move || list_local(&under))
                    .await
                    .map_err(|e| self.failed(Operation::List, folder, e))?;
                Ok(names.into_iter().map(relative).collect())
            }
            Place::Store(location) => {
                let prefix = match folder {
                    "" => location.prefix.clone(),
                    _ => location.key(folder),
                };
                let depth = prefix.parts().count();
                let metas: Vec<_> = location
                    .store
                    .list((depth > 0).then_some(&prefix))
                    .try_collect()
                    .await
                    .map_err(|e| self.failed(Operation::List, folder, describe(&e)))?;
                Ok(metas
                    .into_iter()
                    .map(|meta| {
                        let parts: Vec<String> = meta
                            .location
                            .parts()
                            .skip(depth)
                            .map(|p| p.as_ref().to_owned())
                            .collect();
                        relative(parts.join("/"))
                    })
                    .collect())
            }
        }
    }

    /// Removes `name`; one already gone is not an error.
    pub async fn delete(&self, name: &str) -> Result<(), PlaceError> {
        match self {
            Place::Folder(root) => {
                self.refuse_link(root, Operation::Delete, name)?;
                let path = root.join(name);
                match blocking(move || std::fs::remove_file(&path)).await {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(self.failed(Operation::Delete, name, e))
                    }
                    _ => Ok(()),
                }
            }
            Place::Store(location) => {
                let key = location.key(name);
                match location.store.delete(&key).await {
                    Err(e) if !matches!(e, object_store::Error::NotFound { .. }) => {
                        Err(self.failed(Operation::Delete, name, describe(&e)))
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// Makes a local folder if needed and removes the temporary files a
    /// killed writer left (`whole_file::is_temporary`); on a store, an
    /// unfinished upload is no object.
    pub async fn prepare(&self) -> Result<(), PlaceError> {
        let Place::Folder(root) = self else {
            return Ok(());
        };
        let folder = root.clone();
        blocking(move || create_folder(&folder))
            .await
            .map_err(|e| self.failed(Operation::Create, "", e))?;
        for name in self.list().await? {
            let file = name.rsplit('/').next().unwrap_or(&name);
            if is_temporary(file) {
                self.delete(&name).await?;
            }
        }
        Ok(())
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())))
}

fn local_footer(path: &Path) -> std::io::Result<ParquetMetaData> {
    let file = std::fs::File::open(path)?;
    parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(std::io::Error::other)
}

fn list_local(root: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    let mut folders = vec![(root.to_path_buf(), String::new())];
    while let Some((folder, relative)) = folders.pop() {
        let entries = match std::fs::read_dir(&folder) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && relative.is_empty() => continue,
            entries => entries?,
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if relative.is_empty() {
                name
            } else {
                format!("{relative}/{name}")
            };
            if entry.file_type()?.is_dir() {
                folders.push((entry.path(), path));
            } else {
                names.push(path);
            }
        }
    }
    names.sort();
    Ok(names)
}

/// A whole file as the parts of a multipart upload.
fn bytes_in_parts(
    bytes: Bytes,
) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> + Unpin {
    let parts: Vec<_> = (0..bytes.len())
        .step_by(PART_SIZE)
        .map(|at| Ok(bytes.slice(at..(at + PART_SIZE).min(bytes.len()))))
        .collect();
    futures_util::stream::iter(parts)
}

fn upload_error(error: &UploadError) -> String {
    match error {
        UploadError::Source(said) | UploadError::Content(said) => said.clone(),
        UploadError::Size { expected, received } => {
            format!("{received} bytes of {expected} went up")
        }
        UploadError::Store(e) => describe(e),
    }
}

#[cfg(test)]
#[path = "place_files_tests.rs"]
mod tests;
