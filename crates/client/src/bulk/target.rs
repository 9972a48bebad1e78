//! Where a bulk download goes: a local folder, or a prefix in an object
//! store (`client::storage`). Either is checked before anything is sent: a
//! folder that cannot be written, or (once the download starts, before the
//! job is submitted) a bucket that does not exist or refuses the credentials.

use std::path::PathBuf;

use object_store::path::Path as StorePath;

use crate::error::ClientError;
use crate::storage::folder::Destination;
use crate::storage::{Location, Place};

#[derive(Clone, Debug)]
pub enum Target {
    Folder(Destination),
    Store(Location),
}

impl Target {
    /// The target `text` names (a path or an object store URL, with
    /// `options` for the store); `argument` names it in messages.
    pub fn new(
        argument: &str,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Target, ClientError> {
        Ok(match Place::parse(argument, text, options)? {
            Place::Local(path) => Target::Folder(Destination::new(argument, path)?),
            Place::Store(location) => Target::Store(location),
        })
    }

    /// A local folder.
    pub fn folder(argument: &str, path: impl Into<PathBuf>) -> Result<Target, ClientError> {
        Ok(Target::Folder(Destination::new(argument, path)?))
    }

    /// That a store's bucket exists and takes the credentials: listing the
    /// prefix costs one request, and spares a job whose files could not land.
    pub async fn check(&self) -> Result<(), ClientError> {
        match self {
            Target::Store(location) => location.check().await,
            Target::Folder(_) => Ok(()),
        }
    }
}

/// The key of a file `relative` (`vertical=…/year=…/month=…/name`) under a
/// store's prefix.
pub fn key_of(location: &Location, relative: &str) -> StorePath {
    relative
        .split('/')
        .fold(location.prefix.clone(), |key, part| key.join(part))
}

/// The URL of a file `relative` under a store's prefix, as a user writes it.
pub fn url_of(location: &Location, relative: &str) -> String {
    format!("{}/{relative}", location.shown.trim_end_matches('/'))
}
