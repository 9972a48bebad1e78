//! The cache's files, which appear whole or not at all, private to their
//! owner (`private_files`): written under a temporary name in the same
//! folder, then renamed over the final name (atomic on POSIX and NTFS). Two
//! writers of one name each rename a whole file; the last one stays. There
//! is no fsync, which costs a tenth of a second a file: a file that a crash
//! of the system leaves short is found corrupt when read (its footer and
//! its note are checked) and fetched again.

use std::io::{self, Write};
use std::path::Path;

use super::layout::TEMPORARY_PREFIX;
use crate::private_files::{write_whole, Writing};

/// Writes `path` through `write`, which gets a buffered file.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut Writing) -> io::Result<()>,
) -> io::Result<()> {
    write_whole(path, TEMPORARY_PREFIX, false, write)
}

/// Writes `bytes` to `path` atomically.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_file(path, |out| out.write_all(bytes))
}

#[cfg(test)]
#[path = "atomic_tests.rs"]
mod tests;
