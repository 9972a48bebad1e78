//! Bulk download: asynchronous jobs that export a vertical's end-of-day London
//! snapshots as Parquet, one file per month, downloaded through pre-signed
//! URLs the emulator serves itself.

pub(crate) mod cache;
pub(crate) mod jobs;
pub(crate) mod parquet_file;
pub(crate) mod records;
pub(crate) mod signing;

use cache::FileCache;
use jobs::Jobs;
use signing::Signer;

/// The bulk side of the emulator's state.
pub struct Bulk {
    pub jobs: Jobs,
    pub files: FileCache,
    pub signer: Signer,
}

impl Bulk {
    pub fn new(seed: u64) -> Bulk {
        Bulk {
            jobs: Jobs::new(seed),
            files: FileCache::new(cache::DEFAULT_BUDGET),
            signer: Signer::new(seed),
        }
    }
}
