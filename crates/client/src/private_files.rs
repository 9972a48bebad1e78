//! Files and folders for their owner alone, written whole or not at all.
//!
//! What the history cache and the recorder keep is licensed data, and the
//! cache's `service.json` names the account: on a shared research host no
//! other user may read it. Folders made here are `0700` and files `0600`,
//! whatever the umask; a folder that exists already keeps its mode (it is
//! the user's).
//!
//! A file is written under a temporary name in its folder that cannot be
//! guessed, created exclusively (`O_CREAT | O_EXCL`, as `tempfile` does, so
//! a file or a link planted at that name is never opened through), and
//! renamed over its final name only once whole. A link at the final name is
//! replaced, never written through.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use tempfile::NamedTempFile;

/// Random characters in a temporary name.
const RANDOM_CHARACTERS: usize = 16;

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

/// Writes `path` through `write`, under a temporary name starting with
/// `prefix` in the same folder, then renames it to `path`. With `durable`,
/// the file and then the folder are flushed to disk, so that a crash of the
/// machine, not only of the process, leaves the whole file or none.
pub fn write_whole(
    path: &Path,
    prefix: &str,
    durable: bool,
    write: impl FnOnce(&mut Writing) -> io::Result<()>,
) -> io::Result<()> {
    let folder = path
        .parent()
        .ok_or_else(|| io::Error::other("a file needs a folder"))?;
    create_folder(folder)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    // Created 0600 and exclusively; removed if dropped before it is kept.
    let temporary = tempfile::Builder::new()
        .prefix(&format!("{prefix}{name}."))
        .suffix(".tmp")
        .rand_bytes(RANDOM_CHARACTERS)
        .tempfile_in(folder)?;
    let mut out = BufWriter::new(temporary);
    write(&mut out)?;
    out.flush()?;
    let temporary = out.into_inner().map_err(|e| e.into_error())?;
    if durable {
        temporary.as_file().sync_all()?;
    }
    temporary.persist(path).map_err(|e| e.error)?;
    if durable {
        sync_folder(folder)?;
    }
    Ok(())
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
#[path = "private_files_tests.rs"]
mod tests;
