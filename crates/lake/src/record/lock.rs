//! One recorder per destination folder, and one backfill. Two recorders on
//! one folder would share one checkpoint and each write every value; two
//! backfills would each write the same days. So the second of a kind is
//! refused, naming the first. A recorder and a backfill write different
//! files, and may run at once.
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
use places::storage::whole_file::create_folder;
use places::storage::{Operation, Place, PlaceError};
use places::ClientError;

/// The recorder's lock file in the destination folder.
pub const LOCK_NAME: &str = "_lock";
/// The backfill's.
pub const BACKFILL_LOCK_NAME: &str = "_backfill_lock";

pub use places::storage::Writer;

/// The lock's name in the destination (hidden from readers: `_`).
pub fn lock_name(writer: Writer) -> &'static str {
    match writer {
        Writer::Recorder => LOCK_NAME,
        Writer::Backfill => BACKFILL_LOCK_NAME,
    }
}

/// Held while writing: dropping it (closing the file) lets go of the
/// lock; a store's lease is let go of by [`release`](Self::release), or
/// expires.
pub struct WriterLock {
    _file: Option<File>,
    lease: Option<Lease>,
}

impl WriterLock {
    /// Takes `dest`'s recorder lock, or says who holds it.
    pub async fn take(dest: &Place) -> Result<WriterLock, ClientError> {
        WriterLock::take_for(dest, Writer::Recorder).await
    }

    /// Takes `dest`'s lock of `writer`'s kind, or says who holds it.
    pub async fn take_for(dest: &Place, writer: Writer) -> Result<WriterLock, ClientError> {
        match dest {
            Place::Folder(_) => WriterLock::take_folder(dest, writer),
            Place::Store(location) => Ok(WriterLock {
                _file: None,
                lease: Some(Lease::take(location, writer).await?),
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

    fn take_folder(dest: &Place, writer: Writer) -> Result<WriterLock, ClientError> {
        let Place::Folder(folder) = dest else {
            unreachable!("a folder");
        };
        let failed = |e: std::io::Error| {
            ClientError::from(PlaceError::new(dest.shown(), Operation::Lock(writer), e))
        };
        create_folder(folder).map_err(failed)?;
        let mut file = open_private(&folder.join(lock_name(writer))).map_err(failed)?;
        if !try_lock(&file).map_err(failed)? {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            return Err(
                PlaceError::new(dest.shown(), Operation::Held(writer), holder.trim()).into(),
            );
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
