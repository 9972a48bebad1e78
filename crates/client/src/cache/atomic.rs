//! Files that appear whole or not at all: written under a temporary name in
//! the same folder, then renamed over the final name (atomic on POSIX and
//! NTFS). Two writers of one name each rename a whole file; the last one
//! stays. There is no fsync, which costs a tenth of a second a file: a file
//! that a crash of the system leaves short is found corrupt when read (its
//! footer and its note are checked) and fetched again.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::layout::TEMPORARY_PREFIX;

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Writes `path` through `write`, which gets a buffered file.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other("a file needs a folder"))?;
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let unique = NEXT.fetch_add(1, Ordering::Relaxed);
    let temporary = dir.join(format!(
        "{TEMPORARY_PREFIX}{}-{unique}-{name}",
        std::process::id()
    ));
    let written = (|| {
        let mut out = BufWriter::new(File::create(&temporary)?);
        write(&mut out)?;
        out.flush()?;
        drop(out);
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Writes `bytes` to `path` atomically.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_file(path, |out| out.write_all(bytes))
}

#[cfg(test)]
#[path = "atomic_tests.rs"]
mod tests;
