//! What a cache holds for one service and account, and removing it.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::NaiveDate;

use super::days::slice_batches;
use super::layout::{decode, segments, History, Segment};
use super::segment;
use places::storage::whole_file::is_temporary;

/// The cached days of one curve's history of one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct CachedCurve {
    pub curve_id: String,
    pub history: History,
    pub tenors: usize,
    pub first: NaiveDate,
    pub last: NaiveDate,
    pub files: u64,
    pub bytes: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CacheInfo {
    /// The folder of this service and account.
    pub dir: PathBuf,
    /// Every file in it, the catalogue's included.
    pub files: u64,
    pub bytes: u64,
    pub curves: Vec<CachedCurve>,
}

/// What clearing removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    pub files: u64,
    pub bytes: u64,
}

fn size(path: &Path) -> u64 {
    fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

fn subdirs(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((decode(e.file_name().to_str()?)?, e.path())))
        .collect();
    found.sort();
    found
}

/// Every file under `dir`, with its size.
fn all_files(dir: &Path) -> (u64, u64) {
    let Ok(entries) = fs::read_dir(dir) else {
        return (0, 0);
    };
    entries.flatten().fold((0, 0), |(files, bytes), entry| {
        let path = entry.path();
        let (f, b) = if path.is_dir() {
            all_files(&path)
        } else {
            (1, size(&path))
        };
        (files + f, bytes + b)
    })
}

pub fn info(service: &Path) -> CacheInfo {
    let (files, bytes) = all_files(service);
    let mut curves = Vec::new();
    for history in History::ALL {
        for (curve_id, curve_dir) in subdirs(&service.join(history.name())) {
            let tenors = subdirs(&curve_dir);
            let found: Vec<Segment> = tenors.iter().flat_map(|(_, dir)| segments(dir)).collect();
            let (Some(first), Some(last)) = (
                found.iter().map(|s| s.first).min(),
                found.iter().map(|s| s.last).max(),
            ) else {
                continue;
            };
            curves.push(CachedCurve {
                curve_id,
                history,
                tenors: tenors.len(),
                first,
                last,
                files: found.len() as u64,
                bytes: found.iter().map(|s| size(&s.path)).sum(),
            });
        }
    }
    CacheInfo {
        dir: service.to_path_buf(),
        files,
        bytes,
        curves,
    }
}

fn remove(path: &Path, cleared: &mut Cleared) {
    let bytes = size(path);
    if fs::remove_file(path).is_ok() {
        cleared.files += 1;
        cleared.bytes += bytes;
    }
}

/// Temporary files left by a writer that died, an hour old or more.
fn remove_stale_temporaries(dir: &Path, cleared: &mut Cleared) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let stale = SystemTime::now() - Duration::from_secs(3600);
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            remove_stale_temporaries(&path, cleared);
        } else if is_temporary(&entry.file_name().to_string_lossy())
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < stale)
        {
            remove(&path, cleared);
        }
    }
}

/// Keeps the days from `before` on of a segment that starts earlier.
fn trim(segment: &Segment, history: History, curve_id: &str, tenor: &str, before: NaiveDate) {
    let kept = Segment::in_dir(
        segment.path.parent().expect("a segment is in a folder"),
        before,
        segment.last,
    );
    if let Ok(batches) = segment::read(segment, history, curve_id, tenor) {
        let rows = slice_batches(&batches, history, before, segment.last);
        if let Err(e) = segment::write(&kept, history, curve_id, tenor, &rows) {
            log::warn!(target: "marketcurves.cache", "cannot write {:?}: {e}", kept.path);
        }
    }
}

/// Removes the cached history of `curve_id` (every curve if None), of the
/// days before `before` (every day if None); clearing everything removes
/// the cached catalogues too.
pub fn clear(service: &Path, curve_id: Option<&str>, before: Option<NaiveDate>) -> Cleared {
    let mut cleared = Cleared::default();
    for history in History::ALL {
        for (curve, curve_dir) in subdirs(&service.join(history.name())) {
            if curve_id.is_some_and(|wanted| wanted != curve) {
                continue;
            }
            for (tenor, tenor_dir) in subdirs(&curve_dir) {
                for segment in segments(&tenor_dir) {
                    match before {
                        Some(before) if segment.first >= before => continue,
                        Some(before) if segment.last >= before => {
                            trim(&segment, history, &curve, &tenor, before);
                        }
                        _ => {}
                    }
                    remove(&segment.path, &mut cleared);
                }
                let _ = fs::remove_dir(&tenor_dir);
            }
            let _ = fs::remove_dir(&curve_dir);
        }
    }
    if curve_id.is_none() && before.is_none() {
        let catalogues = service.join("catalogue");
        if let Ok(entries) = fs::read_dir(&catalogues) {
            for entry in entries.flatten() {
                remove(&entry.path(), &mut cleared);
            }
        }
    }
    remove_stale_temporaries(service, &mut cleared);
    cleared
}

#[cfg(test)]
#[path = "info_tests.rs"]
mod tests;
