//! Local folders to write into or read from, checked before anything is
//! sent or created: bad input is an `InvalidRequest` naming the argument
//! (a bulk `dest`, a `cache_dir`, a recording's folder).

use std::path::Path;

use crate::error::ClientError;
use crate::invalid::{Argument, Rule};

fn invalid(argument: &str, rule: Rule, message: String) -> ClientError {
    ClientError::invalid(Argument::Named(argument.to_owned()), rule, message)
}

/// A path someone typed: not blank, no NUL (the system would cut it there).
fn typed_path(name: &str, path: &Path) -> Result<(), ClientError> {
    let text = path.as_os_str().to_string_lossy();
    if text.trim().is_empty() {
        return Err(invalid(
            name,
            Rule::Form,
            format!("{name} must not be empty (use '.' for the current folder)"),
        ));
    }
    if text.contains("://") {
        // `s3://KEY:SECRET@bucket` as a folder's name: never made, never echoed.
        return Err(invalid(
            name,
            Rule::Form,
            format!(
                "{name} must be a local folder, not a URL ({})",
                super::place_url::without_credentials(&text)
            ),
        ));
    }
    if text.contains('\0') {
        return Err(invalid(
            name,
            Rule::Form,
            format!("{name} must not contain NUL characters"),
        ));
    }
    Ok(())
}

/// A folder to write into (a bulk `dest`, a recording, a `cache_dir`). It is not created here: the download creates
/// it once the job has succeeded, so that a call refused before leaves
/// nothing behind. Refused if it is a file, or if it (or, missing, the
/// nearest folder it would be made in) cannot be written.
pub fn folder_to_write(name: &str, path: &Path) -> Result<(), ClientError> {
    typed_path(name, path)?;
    if path.exists() && !path.is_dir() {
        return Err(invalid(
            name,
            Rule::Place,
            format!("{name} {path:?} is a file, not a folder"),
        ));
    }
    let absolute = std::path::absolute(path).map_err(|e| {
        invalid(
            name,
            Rule::Place,
            format!("{name} {path:?} cannot be resolved: {e}"),
        )
    })?;
    let mut existing = absolute.as_path();
    while !existing.exists() {
        match existing.parent() {
            Some(parent) => existing = parent,
            None => break,
        }
    }
    if !existing.is_dir() {
        return Err(invalid(
            name,
            Rule::Place,
            format!("{name} {path:?} cannot be created: {existing:?} is a file"),
        ));
    }
    if !writable(existing) {
        let inside = if existing == absolute {
            String::new()
        } else {
            format!(" (in {existing:?})")
        };
        return Err(invalid(
            name,
            Rule::Place,
            format!("{name} {path:?} is not writable{inside}"),
        ));
    }
    Ok(())
}

/// A folder to read a downloaded dataset from.
pub fn folder_to_read(name: &str, path: &Path) -> Result<(), ClientError> {
    typed_path(name, path)?;
    if !path.is_dir() {
        return Err(invalid(
            name,
            Rule::Place,
            format!("{name} {path:?} is not a folder"),
        ));
    }
    Ok(())
}

/// Whether this process can create files in `folder`, found out by doing
/// it: a file with no name (`O_TMPFILE`), or a random one removed at once.
/// Asking `access(2)` is not enough: it answers yes to root for folders
/// where nothing can be made (`/proc`, a FUSE mount, an immutable folder),
/// and the first write would fail only after the job or the pull.
fn writable(folder: &Path) -> bool {
    tempfile::tempfile_in(folder).is_ok()
}

#[cfg(test)]
#[path = "folder_tests.rs"]
mod tests;
