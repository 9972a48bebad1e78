//! A place given as text: a local path, or an object store URL with its
//! options. Checked before anything is read or written: an unknown scheme,
//! a URL without a bucket or an unknown option is an `InvalidRequest`
//! naming the argument (never an option's value, which may be a secret).

use std::path::PathBuf;
use std::sync::Arc;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::{AzureConfigKey, MicrosoftAzureBuilder};
use object_store::gcp::{GoogleCloudStorageBuilder, GoogleConfigKey};
use object_store::path::Path as StorePath;
use object_store::ObjectStore;
use url::Url;

use super::retry::store_retry;
use crate::error::ClientError;

/// Where data is: a local folder, or a prefix in an object store.
pub enum Place {
    Local(PathBuf),
    Store(Location),
}

/// A prefix in an object store.
#[derive(Clone)]
pub struct Location {
    pub store: Arc<dyn ObjectStore>,
    pub prefix: StorePath,
    /// The URL as the user gave it, for messages (it carries no secret:
    /// credentials go in options or the environment).
    pub shown: String,
}

impl Location {
    /// That the bucket exists and takes the credentials: listing the prefix
    /// costs one request, and spares work whose files could not land.
    pub async fn check(&self) -> Result<(), ClientError> {
        self.store
            .list_with_delimiter(Some(&self.prefix))
            .await
            .map(drop)
            .map_err(|e| store_error(self, &e))
    }
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Location")
            .field("url", &self.shown)
            .finish()
    }
}

fn invalid(message: String) -> ClientError {
    ClientError::InvalidRequest(message)
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
                return Err(invalid(format!(
                    "storage_options apply to object storage URLs (s3://, gs://, az://), \
                     not to the local path {argument} {text:?}"
                )));
            }
            return Ok(Place::Local(PathBuf::from(text)));
        };
        let url = Url::parse(trimmed)
            .map_err(|e| invalid(format!("{argument} {trimmed:?} is not a valid URL: {e}")))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme == "file" {
            if !options.is_empty() {
                return Err(invalid(format!(
                    "storage_options apply to object storage URLs, not to {argument} {trimmed:?}"
                )));
            }
            let path = url
                .to_file_path()
                .map_err(|()| invalid(format!("{argument} {trimmed:?} is not a local file URL")))?;
            return Ok(Place::Local(path));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(invalid(format!(
                "{argument} {trimmed:?} names no bucket or container"
            )));
        }
        let store = build(argument, &scheme, trimmed, options)?;
        let prefix = StorePath::from_url_path(url.path()).map_err(|e| {
            invalid(format!(
                "{argument} {trimmed:?} has a path object storage cannot use: {e}"
            ))
        })?;
        Ok(Place::Store(Location {
            store,
            prefix,
            shown: trimmed.to_owned(),
        }))
    }
}

/// The store of a URL's scheme, from the environment and then `options`.
fn build(
    argument: &str,
    scheme: &str,
    url: &str,
    options: &[(String, String)],
) -> Result<Arc<dyn ObjectStore>, ClientError> {
    let unknown = |key: &str| {
        invalid(format!(
            "storage option {key:?} is not an option of {scheme}:// storage (for {argument} {url:?})"
        ))
    };
    let refused = |e: object_store::Error| {
        invalid(format!(
            "{argument} {url:?}: cannot use this store: {}",
            describe(&e)
        ))
    };
    // Each store's builder takes its own key type; the options are read the
    // same way for all three.
    let store: Arc<dyn ObjectStore> = match scheme {
        "s3" | "s3a" => {
            let builder = AmazonS3Builder::from_env()
                .with_url(url)
                .with_retry(store_retry());
            let builder = configured(builder, options, &unknown, |b, k: AmazonS3ConfigKey, v| {
                b.with_config(k, v)
            })?;
            Arc::new(builder.build().map_err(refused)?)
        }
        "gs" => {
            let builder = GoogleCloudStorageBuilder::from_env()
                .with_url(url)
                .with_retry(store_retry());
            let builder = configured(builder, options, &unknown, |b, k: GoogleConfigKey, v| {
                b.with_config(k, v)
            })?;
            Arc::new(builder.build().map_err(refused)?)
        }
        "az" | "azure" | "abfs" | "abfss" | "adl" => {
            let builder = MicrosoftAzureBuilder::from_env()
                .with_url(url)
                .with_retry(store_retry());
            let builder = configured(builder, options, &unknown, |b, k: AzureConfigKey, v| {
                b.with_config(k, v)
            })?;
            Arc::new(builder.build().map_err(refused)?)
        }
        other => {
            return Err(invalid(format!(
                "{argument} {url:?} has the scheme {other:?}; use s3://, gs://, az://, \
                 abfs://, file:// or a local path"
            )))
        }
    };
    Ok(store)
}

/// `builder` with every option applied, each key parsed (in any case) as
/// one of the store's config keys; an unknown key is an error naming it.
fn configured<B, K: std::str::FromStr>(
    builder: B,
    options: &[(String, String)],
    unknown: &dyn Fn(&str) -> ClientError,
    with: impl Fn(B, K, &str) -> B,
) -> Result<B, ClientError> {
    options.iter().try_fold(builder, |builder, (key, value)| {
        let parsed = key.to_ascii_lowercase().parse().map_err(|_| unknown(key))?;
        Ok(with(builder, parsed, value))
    })
}

/// An object store error in words, without the request's URL (which, on
/// some stores, carries a signature).
pub fn describe(error: &object_store::Error) -> String {
    domain::redact::redact_text(&error.to_string())
}

/// A failure of the store at `location` as the error of the design: a
/// missing bucket or prefix is the caller's (`InvalidRequest`), refused
/// credentials an `AuthError`, anything else the service's.
pub fn store_error(location: &Location, error: &object_store::Error) -> ClientError {
    let said = describe(error);
    match error {
        object_store::Error::NotFound { .. } => invalid(format!(
            "{}: no such bucket or object ({said})",
            location.shown
        )),
        object_store::Error::PermissionDenied { .. }
        | object_store::Error::Unauthenticated { .. } => ClientError::Auth(format!(
            "{}: the store refused the credentials ({said})",
            location.shown
        )),
        _ if said.contains("NoSuchBucket") => invalid(format!(
            "{}: the bucket does not exist ({said})",
            location.shown
        )),
        _ if said.contains("InvalidAccessKeyId")
            || said.contains("SignatureDoesNotMatch")
            || said.contains("AccessDenied") =>
        {
            ClientError::Auth(format!(
                "{}: the store refused the credentials ({said})",
                location.shown
            ))
        }
        _ => ClientError::Service {
            endpoint: location.shown.clone(),
            status: None,
            attempts: 1,
            message: said,
        },
    }
}

#[cfg(test)]
#[path = "location_tests.rs"]
mod tests;
