//! One recorder per destination folder. Two recorders on one folder would
//! share one checkpoint and each write every value, so the second is
//! refused, naming the first.
//!
//! The lock is the operating system's (on `_lock` in the folder):
//! the system lets it go when its holder ends, however it ends (SIGKILL
//! included), so a recorder restarted after a crash is never locked out by
//! its own past. The file says who holds it, for the refusal's message.
//! On an object store the lock is a lease object (`record::lease`).

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::Path;

use super::lease::Lease;
use crate::storage::whole_file::create_folder;
use crate::storage::Place;
use crate::ClientError;

/// The lock's file in the destination folder.
pub const LOCK_NAME: &str = "_lock";

/// Held while recording: dropping it (closing the file) lets go of the
/// lock; a store's lease is let go of by [`release`](Self::release), or
/// expires.
pub struct WriterLock {
    _file: Option<File>,
    lease: Option<Lease>,
}

impl WriterLock {
    /// Takes `dest`'s lock, or says who holds it.
    pub async fn take(dest: &Place) -> Result<WriterLock, ClientError> {
        match dest {
            Place::Folder(_) => WriterLock::take_folder(dest),
            Place::Store(location) => Ok(WriterLock {
                _file: None,
                lease: Some(Lease::take(location).await?),
            }),
        }
    }

    /// An error if the store's lease was lost: nothing more may be written.
    pub fn check(&self) -> Result<(), ClientError> {
        self.lease.as_ref().map_or(Ok(()), Lease::check)
    }

    /// Lets go of the lock at once.
    pub async fn release(self) {
        if let Some(lease) = self.lease {
            lease.release().await;
        }
    }

    fn take_folder(dest: &Place) -> Result<WriterLock, ClientError> {
        let Place::Folder(folder) = dest else {
            unreachable!("a folder");
        };
        let failed = |e: std::io::Error| {
            ClientError::Destination(format!("cannot lock {} for recording: {e}", dest.shown()))
        };
        create_folder(folder).map_err(failed)?;
        let mut file = open_private(&folder.join(LOCK_NAME)).map_err(failed)?;
        if !try_lock(&file).map_err(failed)? {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            return Err(ClientError::Destination(format!(
                "{} is being recorded into by another recorder ({}): one recorder per \
                 destination, or each would write every value",
                dest.shown(),
                holder.trim()
            )));
        }
        let holder = format!(
            "process {} since {}",
            std::process::id(),
            chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ")
        );
        file.set_len(0).map_err(failed)?;
        file.rewind().map_err(failed)?;
        file.write_all(holder.as_bytes()).map_err(failed)?;
        Ok(WriterLock {
            _file: Some(file),
            lease: None,
        })
    }
}

fn open_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Takes the file's exclusive lock without waiting (`flock` on Unix,
/// `LockFileEx` on Windows); false if another holds it.
fn try_lock(file: &File) -> std::io::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

#[cfg(test)]
#[path = "lock_tests.rs"]
mod tests;
