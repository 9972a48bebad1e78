//! Building a job's files when it ends. The status of a job that succeeded
//! lists every file's exact size, so its files are built when the job is
//! first seen to have ended, one month at a time, on a task of their own.
//! The status waits a while for them: long enough that a small job is
//! listed at once, not so long that a poll of a large one times out (it
//! answers RUNNING until the last file is built).
//!
//! Building reads the world as it is when a file is built and stops when the
//! emulator is gone, so it works on the whole state: it sits here, beside the
//! bulk routes that call it, above the state, rather than in `bulk` below it.

use std::sync::{Arc, Weak};
use std::time::Duration;

use bytes::Bytes;

use crate::bulk::jobs::{Built, Job};
use crate::bulk::parquet_file::write_month;
use crate::bulk::records::FileKey;
use crate::state::AppState;

/// How long (real time) a status request waits for a job's files.
pub(super) const PATIENCE: Duration = Duration::from_secs(5);

/// The bytes of a bulk file, built on first use.
pub(super) async fn file_bytes(state: &Arc<AppState>, key: &FileKey) -> Result<Bytes, String> {
    let (builder, owned) = (Arc::clone(state), key.clone());
    state
        .bulk
        .files
        .get_or_build(key, move || {
            write_month(&builder.world(), &owned).map_err(|e| e.to_string())
        })
        .await
}

/// The sizes of a job's files, month by month, if they are built within
/// `patience`; starts building them if nobody has.
pub(super) async fn job_sizes(
    state: &Arc<AppState>,
    job: &Arc<Job>,
    patience: Duration,
) -> Option<Built> {
    if job.claim_build() {
        tokio::spawn(build(Arc::downgrade(state), Arc::clone(job)));
    }
    job.wait_built(patience).await
}

/// Builds every month of the job, or gives up once the emulator is gone.
async fn build(state: Weak<AppState>, job: Arc<Job>) {
    let mut sizes = Vec::new();
    for month in job.months() {
        let Some(state) = state.upgrade() else {
            return;
        };
        let key = job.key(month);
        let size = match state.bulk.files.size(&key) {
            Some(size) => Ok(size),
            None => file_bytes(&state, &key).await.map(|b| b.len() as u64),
        };
        match size {
            Ok(size) => sizes.push(size),
            Err(error) => return job.set_built(Err(error)),
        }
    }
    job.set_built(Ok(sizes.into()));
}

#[cfg(test)]
#[path = "building_tests.rs"]
mod tests;
