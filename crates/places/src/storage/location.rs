//! A prefix in an object store, from a URL and its options, and the store's
//! errors in the design's terms. Checked before anything is read or
//! written: an unknown scheme, a URL without a bucket or an unknown option
//! is an `InvalidRequest` naming the argument (never an option's value,
//! which may be a secret).

use std::sync::Arc;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::{AzureConfigKey, MicrosoftAzureBuilder};
use object_store::gcp::{GoogleCloudStorageBuilder, GoogleConfigKey};
use object_store::path::Path as StorePath;
use object_store::ObjectStore;
use url::Url;

use super::retry::store_retry;
use crate::error::ClientError;
use crate::invalid::{Argument, Rule};

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

/// An argument named `argument` (as its caller names it) that breaks `rule`.
pub(super) fn invalid(argument: &str, rule: Rule, message: String) -> ClientError {
    ClientError::invalid(Argument::Named(argument.to_owned()), rule, message)
}

impl Location {
    /// The prefix an object store URL names, its store built from the
    /// environment and then `options`; `argument` names it in messages.
    pub(super) fn from_url(
        argument: &str,
        url: &str,
        options: &[(String, String)],
    ) -> Result<Location, ClientError> {
        let (scheme, _) = url.split_once("://").unwrap_or_default();
        let parsed = Url::parse(url).map_err(|e| {
            invalid(
                argument,
                Rule::Form,
                format!("{argument} {url:?} is not a valid URL: {e}"),
            )
        })?;
        if parsed.host_str().is_none_or(str::is_empty) {
            return Err(invalid(
                argument,
                Rule::Form,
                format!("{argument} {url:?} names no bucket or container"),
            ));
        }
        let store = build(argument, &scheme.to_ascii_lowercase(), url, options)?;
        let prefix = StorePath::from_url_path(parsed.path()).map_err(|e| {
            invalid(
                argument,
                Rule::Form,
                format!("{argument} {url:?} has a path object storage cannot use: {e}"),
            )
        })?;
        Ok(Location {
            store,
            prefix,
            shown: url.to_owned(),
        })
    }

    /// The key of `name` (`a/b/file`, relative to the prefix): the one key
    /// builder of every object the package writes or reads.
    pub fn key(&self, name: &str) -> StorePath {
        name.split('/')
            .filter(|part| !part.is_empty())
            .fold(self.prefix.clone(), |key, part| key.join(part))
    }

    /// The URL of `name` under the prefix, as a user writes it.
    pub fn url(&self, name: &str) -> String {
        format!("{}/{name}", self.shown.trim_end_matches('/'))
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
        invalid(argument, Rule::Form, format!(
            "storage option {key:?} is not an option of {scheme}:// storage (for {argument} {url:?})"
        ))
    };
    let refused = |e: object_store::Error| {
        invalid(
            argument,
            Rule::Form,
            format!(
                "{argument} {url:?}: cannot use this store: {}",
                describe(&e)
            ),
        )
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
            return Err(invalid(
                argument,
                Rule::Form,
                format!(
                    "{argument} {url:?} has the scheme {other:?}; use s3://, gs://, az://, \
                 abfs://, file:// or a local path"
                ),
            ))
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
        object_store::Error::NotFound { .. } => invalid(
            &location.shown,
            Rule::Place,
            format!("{}: no such bucket or object ({said})", location.shown),
        ),
        object_store::Error::PermissionDenied { .. }
        | object_store::Error::Unauthenticated { .. } => refused(location, said),
        _ if said.contains("NoSuchBucket") => invalid(
            &location.shown,
            Rule::Place,
            format!("{}: the bucket does not exist ({said})", location.shown),
        ),
        _ if said.contains("InvalidAccessKeyId")
            || said.contains("SignatureDoesNotMatch")
            || said.contains("AccessDenied") =>
        {
            refused(location, said)
        }
        _ => ClientError::Service {
            endpoint: location.shown.clone(),
            status: None,
            attempts: 1,
            message: said,
            advice: None,
        },
    }
}

/// The store refused the credentials, in `said`'s words.
fn refused(location: &Location, said: String) -> ClientError {
    ClientError::auth(
        crate::AuthReason::StoreRefused,
        Some(location.shown.clone()),
        said,
    )
}
