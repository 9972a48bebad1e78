//! A place: where data is written or read, a local folder or a prefix in an
//! object store, parsed from the path or URL a user gave. The one type every
//! writer and reader of files takes (bulk downloads, the recorder, the tick
//! and bulk readers); its files are read and written by `place_files`.

use std::path::PathBuf;
use std::sync::Arc;

use object_store::path::Path as StorePath;
use object_store::ObjectStore;
use url::Url;

use super::folder::folder_to_write;
use super::location::{invalid, Location};
use super::place_url;
use crate::error::ClientError;
use crate::invalid::Rule;

/// Where data is: a local folder, or a prefix in an object store.
#[derive(Clone, Debug)]
pub enum Place {
    Folder(PathBuf),
    Store(Location),
}

impl Place {
    /// The place `text` names; `argument` names it in messages. `options`
    /// apply to object store URLs only.
    pub fn parse(
        argument: &str,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Place, ClientError> {
        let trimmed = text.trim();
        let Some((scheme, _)) = trimmed.split_once("://") else {
            if !options.is_empty() {
                return Err(invalid(
                    argument,
                    Rule::Form,
                    format!(
                        "storage_options apply to object storage URLs (s3://, gs://, az://), \
                     not to the local path {argument} {text:?}"
                    ),
                ));
            }
            return Ok(Place::Folder(PathBuf::from(text)));
        };
        place_url::check(argument, trimmed)?;
        if !scheme.eq_ignore_ascii_case("file") {
            return Location::from_url(argument, trimmed, options).map(Place::Store);
        }
        let url = Url::parse(trimmed).map_err(|e| {
            invalid(
                argument,
                Rule::Form,
                format!("{argument} {trimmed:?} is not a valid URL: {e}"),
            )
        })?;
        if !options.is_empty() {
            return Err(invalid(
                argument,
                Rule::Form,
                format!(
                    "storage_options apply to object storage URLs, not to {argument} {trimmed:?}"
                ),
            ));
        }
        let path = url.to_file_path().map_err(|()| {
            invalid(
                argument,
                Rule::Form,
                format!("{argument} {trimmed:?} is not a local file URL"),
            )
        })?;
        Ok(Place::Folder(path))
    }

    /// That a place to read a lake from (a recording, a backfill) is there:
    /// a folder must exist, a store be reachable (`check`); `argument`
    /// names it in the refusal.
    pub async fn check_lake(&self, argument: &str) -> Result<(), ClientError> {
        if let Place::Folder(path) = self {
            if !path.is_dir() {
                return Err(invalid(
                    argument,
                    Rule::Place,
                    format!(
                        "{argument} {:?} is not a folder with a lake",
                        path.display().to_string()
                    ),
                ));
            }
        }
        self.check().await
    }

    /// The place `text` names, to write into: a folder must be one this
    /// process can write, or can make (it is not made here, so that a call
    /// refused later leaves nothing behind).
    pub fn to_write(
        argument: &str,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Place, ClientError> {
        let place = Place::parse(argument, text, options)?;
        if let Place::Folder(path) = &place {
            folder_to_write(argument, path)?;
        }
        Ok(place)
    }

    /// A local folder to write into, checked as [`to_write`](Self::to_write) does.
    pub fn folder_to_write(argument: &str, path: impl Into<PathBuf>) -> Result<Place, ClientError> {
        let path = path.into();
        folder_to_write(argument, &path)?;
        Ok(Place::Folder(path))
    }

    /// A store the caller built and configured (an obstore store, from
    /// Python), whose own prefix the store applies; `shown` names it in
    /// messages and results. Its configuration is the store's: `options`
    /// as well is refused, as two configurations of one place.
    pub fn of_store(
        argument: &str,
        store: Arc<dyn ObjectStore>,
        shown: String,
        options: &[(String, String)],
    ) -> Result<Place, ClientError> {
        if !options.is_empty() {
            return Err(invalid(
                argument,
                Rule::Place,
                format!(
                    "{argument} is a store ({shown}), configured when it was made: \
                 storage_options go with an object store URL, not with a store"
                ),
            ));
        }
        Ok(Place::Store(Location {
            store,
            prefix: StorePath::default(),
            shown,
        }))
    }

    /// The place as the user gave it, for messages.
    pub fn shown(&self) -> String {
        match self {
            Place::Folder(path) => path.display().to_string(),
            Place::Store(location) => location.shown.clone(),
        }
    }

    /// That a store's bucket exists and takes the credentials (one listing),
    /// as the error of the design: `InvalidRequest` for a missing bucket,
    /// `AuthError` for refused credentials. A folder is checked when parsed.
    pub async fn check(&self) -> Result<(), ClientError> {
        match self {
            Place::Store(location) => location.check().await,
            Place::Folder(_) => Ok(()),
        }
    }
}

#[cfg(test)]
#[path = "place_tests.rs"]
mod tests;
