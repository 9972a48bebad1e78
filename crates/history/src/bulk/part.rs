//! The temporary file a bulk file is downloaded into, beside its final name:
//! `.<name>.<random>.<validator>.part`, the one temporary-name scheme
//! (`storage::whole_file`) with the kind of a resumable part.
//!
//! - The name cannot be guessed and the file is created exclusively, so a
//!   file or a link planted in the destination is never written through.
//! - While a download writes it, the file is locked (`File::try_lock`): a
//!   second download of the same file into the same folder leaves it alone.
//! - The validator (the response's strong `ETag`, else its `Last-Modified`,
//!   base64url) says which version of the service's file the bytes belong
//!   to. A later run resumes the part only with `If-Range` on that validator,
//!   so bytes of two different files are never joined. A part without one is
//!   never resumed.
//! - Parts left by a run that ended (nothing holds their lock) and that
//!   cannot be resumed are removed when the same file is downloaded again.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use places::storage::whole_file::temporary_beside;

/// The longest validator kept in a name (file names stop at 255 bytes).
const LONGEST_KEPT_VALIDATOR: usize = 96;

/// A part being written, locked by this process. Dropped (a download that
/// failed, or was cancelled), it stays for a later run to resume if it holds
/// bytes of a named version, and is removed otherwise.
pub(super) struct Part {
    path: PathBuf,
    file: Option<File>,
    validator: Option<String>,
}

fn name_of(target: &Path) -> &str {
    target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file")
}

fn folder_of(target: &Path) -> io::Result<&Path> {
    target
        .parent()
        .ok_or_else(|| io::Error::other("a file needs a folder"))
}

impl Part {
    /// A new, empty part for the version of the file `validator` names.
    pub(super) fn create(target: &Path, validator: Option<&str>) -> io::Result<Part> {
        let kept = validator.filter(|v| v.len() <= LONGEST_KEPT_VALIDATOR);
        let kind = match kept {
            Some(v) => format!("{}.part", URL_SAFE_NO_PAD.encode(v)),
            None => "part".to_owned(),
        };
        let (file, path) = temporary_beside(target, &kind)?
            .keep()
            .map_err(|e| e.error)?;
        // A new file no one else has opened: a file system without locks
        // (some network mounts) must not stop the download.
        let _ = file.try_lock();
        Ok(Part {
            path,
            file: Some(file),
            validator: validator.map(str::to_owned),
        })
    }

    /// The part an earlier run left for `target` that can be resumed: the
    /// longest one that names its validator and that no one is writing.
    /// The others no one is writing are removed.
    pub(super) fn left_over(target: &Path) -> io::Result<Option<Part>> {
        let prefix = format!(".{}.", name_of(target));
        let folder = folder_of(target)?;
        let entries = match std::fs::read_dir(folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut best: Option<Part> = None;
        for entry in entries {
            let entry = entry?;
            let Some(middle) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.strip_prefix(&prefix)?.strip_suffix(".part"))
                .map(str::to_owned)
            else {
                continue;
            };
            let Some(part) = Part::open_existing(entry.path(), &middle) else {
                continue;
            };
            if part.validator.is_none() {
                part.remove();
                continue;
            }
            match best.take() {
                Some(b) if b.len() >= part.len() => {
                    part.remove();
                    best = Some(b);
                }
                Some(b) => {
                    b.remove();
                    best = Some(part);
                }
                None => best = Some(part),
            }
        }
        Ok(best)
    }

    /// A part found in the folder, if it is a plain file of ours that no
    /// one holds.
    fn open_existing(path: PathBuf, middle: &str) -> Option<Part> {
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if !meta.file_type().is_file() || !single_link(&meta) {
            return None;
        }
        let file = open_no_follow(&path).ok()?;
        lock(&file).ok()?;
        // Only what a header can carry: a name planted with other bytes
        // would make every resume request fail to be sent.
        let validator = middle
            .split_once('.')
            .and_then(|(_, encoded)| URL_SAFE_NO_PAD.decode(encoded).ok())
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .filter(|v| !v.is_empty() && v.bytes().all(|b| (0x20..0x7f).contains(&b)));
        Some(Part {
            path,
            file: Some(file),
            validator,
        })
    }

    pub(super) fn validator(&self) -> Option<&str> {
        self.validator.as_deref()
    }

    /// Bytes written so far.
    pub(super) fn len(&self) -> u64 {
        self.file
            .as_ref()
            .and_then(|f| f.metadata().ok())
            .map_or(0, |m| m.len())
    }

    /// Cuts the part to its first `len` bytes.
    pub(super) fn shorten_to(&self, len: u64) -> io::Result<()> {
        self.file.as_ref().expect("open until kept").set_len(len)
    }

    /// A handle to append to (it shares this part's lock).
    pub(super) fn appender(&self) -> io::Result<File> {
        let file = self.file.as_ref().expect("open until kept");
        let appender = file.try_clone()?;
        Ok(appender)
    }

    /// Where the bytes are, to check them before they are kept.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the part to `target`, replacing whatever is there (a link at
    /// `target` is replaced, never written through).
    pub(super) fn keep(mut self, target: &Path) -> io::Result<()> {
        std::fs::rename(&self.path, target)?;
        self.file = None;
        self.path = PathBuf::new();
        Ok(())
    }
}

impl Part {
    /// Removes the part: its bytes will not be used.
    pub(super) fn remove(mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Drop for Part {
    fn drop(&mut self) {
        let resumable = self.validator.is_some() && self.len() > 0;
        if self.file.take().is_some() && !resumable {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Takes the file's lock without waiting.
fn lock(file: &File) -> io::Result<()> {
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => io::Error::other("being written by another download"),
        std::fs::TryLockError::Error(e) => e,
    })
}

fn open_no_follow(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    options.open(path)
}

#[cfg(unix)]
fn single_link(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // A hard link to a file elsewhere would be appended to through it, and
    // a file of another user is not ours to take.
    // SAFETY: geteuid has no preconditions and cannot fail.
    meta.nlink() == 1 && meta.uid() == unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn single_link(_meta: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
#[path = "part_tests.rs"]
mod tests;
