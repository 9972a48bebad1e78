//! The one way the package writes a local file: whole or not at all, for its
//! owner alone, under the one temporary-name scheme.
//!
//! What the history cache and the recorder keep is licensed data, and the
//! cache's `service.json` names the account: on a shared research host no
//! other user may read it. Folders made here are `0700` and files `0600`,
//! whatever the umask; a folder that exists already keeps its mode (it is
//! the user's).
//!
//! Every temporary file is named `.<final name>.<random>.<kind>`, beside its
//! final name: hidden (readers skip it, as pyarrow does), with 16 random
//! characters that cannot be guessed, created exclusively (`O_CREAT |
//! O_EXCL`, as `tempfile` does, so a file or a link planted at that name is
//! never opened through). Its kind is `tmp` for a whole-file write, renamed
//! over its final name only once whole (a link at the final name is
//! replaced, never written through), and `<version>.part` for a bulk
//! download that a later run may resume (`bulk::part`). The folders the
//! package writes hold no other hidden file, so a hidden file there is one
//! a writer left ([`is_temporary`]).
//!
//! How durable a write is, is said at each use ([`Durability`]).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use tempfile::NamedTempFile;

/// Random characters in a temporary name.
const RANDOM_CHARACTERS: usize = 16;

/// What a crash may leave of a file written whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// The rename alone: a crash of the process leaves the whole file or
    /// none; a crash of the machine may leave it short. For files whose
    /// readers check them and can fetch them again (the history cache: an
    /// fsync costs a tenth of a second a file).
    Renamed,
    /// The file and then its folder flushed to disk before and after the
    /// rename: a crash of the machine, too, leaves the whole file or none.
    /// For what exists nowhere else (a recording).
    Synced,
}

/// Whether a file of a folder the package writes is a temporary one (see
/// the module's doc): every temporary file is hidden, and nothing else is.
pub fn is_temporary(file_name: &str) -> bool {
    file_name.starts_with('.')
}

/// A new temporary file beside `target`, named `.<name>.<random>.<kind>`
/// (the one scheme), created exclusively and `0600`; removed if dropped.
pub fn temporary_beside(target: &Path, kind: &str) -> io::Result<NamedTempFile> {
    let folder = target
        .parent()
        .ok_or_else(|| io::Error::other("a file needs a folder"))?;
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file");
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(&format!(".{kind}"))
        .rand_bytes(RANDOM_CHARACTERS)
        .tempfile_in(folder)
}

/// What a file is written into: its temporary file, buffered.
pub type Writing = BufWriter<NamedTempFile>;

/// Makes `path` and the folders above it that are missing, each `0700`.
pub fn create_folder(path: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(path)
}

/// Writes `path` through `write` under a temporary name beside it, then
/// renames it to `path`, as durably as `durability` says.
pub fn write_whole(
    path: &Path,
    durability: Durability,
    write: impl FnOnce(&mut Writing) -> io::Result<()>,
) -> io::Result<()> {
    let folder = path
        .parent()
        .ok_or_else(|| io::Error::other("a file needs a folder"))?;
    create_folder(folder)?;
    let temporary = temporary_beside(path, "tmp")?;
    let mut out = BufWriter::new(temporary);
    write(&mut out)?;
    out.flush()?;
    let temporary = out.into_inner().map_err(|e| e.into_error())?;
    let synced = durability == Durability::Synced;
    if synced {
        temporary.as_file().sync_all()?;
    }
    temporary.persist(path).map_err(|e| e.error)?;
    if synced {
        sync_folder(folder)?;
    }
    Ok(())
}

/// Writes `bytes` to `path` whole (see [`write_whole`]).
pub fn write_bytes(path: &Path, durability: Durability, bytes: &[u8]) -> io::Result<()> {
    write_whole(path, durability, |out| out.write_all(bytes))
}

#[cfg(unix)]
fn sync_folder(folder: &Path) -> io::Result<()> {
    File::open(folder)?.sync_all()
}

#[cfg(not(unix))]
fn sync_folder(_folder: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
#[path = "whole_file_tests.rs"]
mod tests;
