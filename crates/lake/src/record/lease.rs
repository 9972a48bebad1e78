//! One recorder per object store prefix, and one backfill: a lease object,
//! `_lock` (or `_backfill_lock`) under the prefix, created only if absent (`If-None-Match: *`) and renewed while the
//! recorder runs, each renewal conditional on the version it last wrote
//! (`If-Match`), so two recorders can never both believe they hold it.
//!
//! - The object says who holds it (host, process, since when) and until
//!   when: [`LEASE_TERM`] after its last renewal.
//! - A lease past its term, or held by a process of this host that no longer
//!   runs (a recorder killed with SIGKILL, restarted at once), is taken over,
//!   again conditionally on the version read.
//! - A renewal that finds another version has lost the lease: the recorder
//!   stops before its next write ([`Lease::check`]).
//! - Stopping deletes the object; a recorder that dies leaves it to expire.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload, UpdateVersion};
use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;

use super::lock::Writer;
use places::storage::{describe, Location, Operation, PlaceError};
use places::ClientError;

/// How long a lease holds after its last renewal.
pub(super) const LEASE_TERM: Duration = Duration::from_secs(60);
/// How often a held lease is renewed: three chances within its term.
const RENEW_EVERY: Duration = Duration::from_secs(15);

/// What the lease object holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Holder {
    host: String,
    pid: u32,
    since: DateTime<Utc>,
    until: DateTime<Utc>,
}

impl Holder {
    fn this_process(since: DateTime<Utc>) -> Holder {
        Holder {
            host: host_name(),
            pid: std::process::id(),
            since,
            until: Utc::now() + LEASE_TERM,
        }
    }

    fn described(&self) -> String {
        format!(
            "process {} on {} since {}, its lease renewed until {}",
            self.pid,
            self.host,
            self.since.format("%Y-%m-%dT%H:%M:%SZ"),
            self.until.format("%Y-%m-%dT%H:%M:%SZ")
        )
    }

    /// Whether no recorder can still hold this lease: its term is over, or
    /// its process, on this very host, has ended.
    fn is_stale(&self) -> bool {
        self.until < Utc::now() || (self.host == host_name() && !process_runs(self.pid))
    }

    fn payload(&self) -> PutPayload {
        PutPayload::from(Bytes::from(
            serde_json::to_vec(self).expect("a plain struct"),
        ))
    }
}

/// A lease held on a prefix, renewed in the background until dropped.
pub(super) struct Lease {
    writer: Writer,
    store: Arc<dyn ObjectStore>,
    key: StorePath,
    shown: String,
    /// Why the lease was lost, once it was.
    lost: Arc<Mutex<Option<String>>>,
    renewing: JoinHandle<()>,
}

impl Lease {
    /// Takes `writer`'s lease of `location`, or says who holds it.
    pub(super) async fn take(location: &Location, writer: Writer) -> Result<Lease, ClientError> {
        Lease::take_renewing(location, writer, RENEW_EVERY).await
    }

    /// The same, renewed every `every`.
    async fn take_renewing(
        location: &Location,
        writer: Writer,
        every: Duration,
    ) -> Result<Lease, ClientError> {
        let key = location.prefix.clone().join(super::lock::lock_name(writer));
        let store = Arc::clone(&location.store);
        let shown = location.shown.clone();
        let failed = |e: object_store::Error| {
            ClientError::from(PlaceError::new(
                shown.as_str(),
                Operation::TakeLease(writer),
                describe(&e),
            ))
        };
        let holder = Holder::this_process(Utc::now());
        let created = store
            .put_opts(&key, holder.payload(), PutOptions::from(PutMode::Create))
            .await;
        let version = match created {
            Ok(result) => UpdateVersion::from(result),
            Err(object_store::Error::AlreadyExists { .. }) => {
                take_over(store.as_ref(), &key, (&shown, writer), &holder).await?
            }
            Err(e) => return Err(failed(e)),
        };
        let lost = Arc::new(Mutex::new(None));
        let renewing = tokio::spawn(renew(
            writer,
            every,
            Arc::clone(&store),
            key.clone(),
            holder,
            version,
            Arc::clone(&lost),
        ));
        Ok(Lease {
            writer,
            store,
            key,
            shown,
            lost,
            renewing,
        })
    }

    /// An error if the lease was lost (to another recorder, after renewals
    /// failed for a whole term): nothing more may be written.
    pub(super) fn check(&self) -> Result<(), ClientError> {
        match self.lost.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            None => Ok(()),
            Some(why) => {
                Err(PlaceError::new(self.shown.as_str(), Operation::Lost(self.writer), why).into())
            }
        }
    }

    /// Lets go of the lease: the next writer need not wait for its term.
    pub(super) async fn release(self) {
        self.renewing.abort();
        let still_ours = self.check().is_ok();
        if still_ours {
            let _ = self.store.delete(&self.key).await;
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // Not released (a failed run): the lease expires after its term.
        self.renewing.abort();
    }
}

/// Takes over the lease at `key` if its holder is gone; else refuses,
/// naming the holder.
async fn take_over(
    store: &dyn ObjectStore,
    key: &StorePath,
    (shown, writer): (&str, Writer),
    holder: &Holder,
) -> Result<UpdateVersion, ClientError> {
    let failed = |e: object_store::Error| {
        ClientError::from(PlaceError::new(
            shown,
            Operation::ReadLease(writer),
            describe(&e),
        ))
    };
    let found = store.get(key).await.map_err(failed)?;
    let version = UpdateVersion {
        e_tag: found.meta.e_tag.clone(),
        version: found.meta.version.clone(),
    };
    let bytes = found.bytes().await.map_err(failed)?;
    let current: Option<Holder> = serde_json::from_slice(&bytes).ok();
    let refused =
        |who: &str| ClientError::from(PlaceError::new(shown, Operation::Held(writer), who));
    if let Some(current) = &current {
        if !current.is_stale() {
            return Err(refused(&current.described()));
        }
    }
    let mode = PutMode::Update(version);
    match store
        .put_opts(key, holder.payload(), PutOptions::from(mode))
        .await
    {
        Ok(result) => Ok(UpdateVersion::from(result)),
        Err(object_store::Error::Precondition { .. }) => {
            Err(refused("one that took the lease over a moment ago"))
        }
        Err(e) => Err(failed(e)),
    }
}

/// Renews the lease every `every`, each time conditionally on the version
/// last written; notes it lost when another version is found.
async fn renew(
    writer: Writer,
    every: Duration,
    store: Arc<dyn ObjectStore>,
    key: StorePath,
    mut holder: Holder,
    mut version: UpdateVersion,
    lost: Arc<Mutex<Option<String>>>,
) {
    loop {
        tokio::time::sleep(every).await;
        holder.until = Utc::now() + LEASE_TERM;
        let mode = PutMode::Update(version.clone());
        match store
            .put_opts(&key, holder.payload(), PutOptions::from(mode))
            .await
        {
            Ok(result) => version = UpdateVersion::from(result),
            Err(
                object_store::Error::Precondition { .. } | object_store::Error::NotFound { .. },
            ) => {
                let why = format!(
                    "another {} took its lease over (renewals failed for a whole term)",
                    writer.noun()
                );
                *lost.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                return;
            }
            // A passing fault: the next renewal tries again, within the term.
            Err(e) => log::warn!(
                target: "marketcurves.record",
                "cannot renew the {} lease {key}: {}",
                writer.noun(),
                describe(&e)
            ),
        }
    }
}

fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buffer = [0u8; 256];
        // SAFETY: the buffer outlives the call and its length is given.
        let done = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
        if done == 0 {
            let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
            return String::from_utf8_lossy(&buffer[..end]).into_owned();
        }
    }
    std::env::var("COMPUTERNAME").unwrap_or_else(|_| "unknown host".into())
}

/// Whether process `pid` of this host runs (unknown elsewhere than Unix:
/// taken as running, so the lease waits for its term).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: signal 0 checks only that the process exists.
        let sent = unsafe { libc::kill(pid, 0) };
        sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

#[cfg(test)]
#[path = "lease_tests.rs"]
mod tests;
