//! After a call over a store: its tenors' final days packed into one file
//! (`pack`), from the rows the call returns (no request of the service
//! more), so that the next call over those days reads one object, not one
//! per tenor. Written only when no pack the call read holds them already;
//! once it is whole, the packs it covers (each of their tenors' days
//! within its own) are removed, as a merge removes the segments it
//! covers (`keep`). A failure to write is a warning: the call has its
//! rows, and the tenors' segments hold the days. A refresh removes the
//! packs over its days first: what the service says now is in its
//! segments, newer than any pack.

use std::path::PathBuf;

use chrono::NaiveDate;

use super::days::slice_batches;
use super::files::{Put, Written};
use super::layout::curve_dir;
use super::pack::{self, Pack, PackFile, TenorDays};
use super::prefetch::{joined, Prefetched, READS_AT_ONCE};
use super::through::{Call, RunRows, TenorResult, Through};
use super::CacheMode;
use domain::tenor::Tenor;

/// Tenors a call must have for its days to be packed, or its packs read:
/// more than one round of a store's concurrent reads
/// (`prefetch::READS_AT_ONCE`). Fewer tenors' segments are read in one
/// round, about as fast as one pack, and a pack would only keep their
/// bytes twice.
pub(super) const PACK_TENORS: usize = READS_AT_ONCE + 1;

impl Through<'_> {
    /// Packs the days each tenor of the call holds in the cache now (its
    /// longest run of them), if no pack read by the call holds them.
    pub(super) async fn keep_pack(
        &self,
        call: &Call<'_>,
        results: &[(Tenor, TenorResult)],
        prefetched: Option<&Prefetched>,
    ) {
        let mut tenors = Vec::new();
        for (tenor, result) in results {
            let runs = joined(result.held.clone());
            let longest = runs.into_iter().max_by_key(|(f, l)| (*l - *f, *f));
            let Some((first, last)) = longest else {
                continue;
            };
            let rows = slice_batches(&result.batches, call.history, first, last);
            let days = TenorDays {
                tenor: tenor.name().to_owned(),
                first,
                last,
            };
            tenors.push((days, rows));
        }
        if tenors.len() < PACK_TENORS {
            return;
        }
        let spans: Vec<TenorDays> = tenors.iter().map(|(days, _)| days.clone()).collect();
        let read: Vec<&Pack> = prefetched.map(|p| p.packs().collect()).unwrap_or_default();
        if read.iter().any(|pack| holds(pack, &spans)) {
            return;
        }
        let curve = curve_dir(&self.dirs.history, call.history, call.curve_id);
        let Some(file) = PackFile::of(&curve, &spans) else {
            return;
        };
        let covered: Vec<PathBuf> = read
            .iter()
            .filter(|pack| pack.spans().all(|s| within(s, &spans)))
            .map(|pack| pack.file.path.clone())
            .collect();
        let put = match call.mode {
            CacheMode::Refresh => Put::Replace,
            _ => Put::Create,
        };
        let (files, history, curve_id) = (
            self.dirs.files.clone(),
            call.history,
            call.curve_id.to_owned(),
        );
        let writing = tokio::task::spawn_blocking(move || {
            match pack::write(&files, &file, put, (history, &curve_id), &tenors) {
                Ok(Written::Whole) => {
                    for path in covered.iter().filter(|p| **p != file.path) {
                        let _ = files.delete(path);
                    }
                }
                Ok(Written::Lost) => {}
                Err(e) => {
                    let path = files.shown(&file.path);
                    log::warn!(target: "marketcurves.cache", "cannot write {path}: {e}");
                }
            }
        });
        let _ = writing.await;
    }
}

impl Through<'_> {
    /// After a refresh: the curve's packs over its days are removed (the
    /// next call of many tenors packs them anew), so that no pack holds a
    /// day older than a segment does, and a reader whose packs hold all it
    /// needs may skip the segments (`prefetch`).
    pub(super) async fn drop_packs_over(&self, call: &Call<'_>) {
        let curve = curve_dir(&self.dirs.history, call.history, call.curve_id);
        let (files, start, end) = (self.dirs.files.clone(), call.start, call.end);
        let dropping = tokio::task::spawn_blocking(move || {
            for file in files.list(&curve) {
                let Some(pack) = PackFile::from_name(&curve, file.file_name()) else {
                    continue;
                };
                if pack.first <= end && start <= pack.last {
                    if let Err(e) = files.delete(&pack.path) {
                        let path = files.shown(&pack.path);
                        log::warn!(target: "marketcurves.cache", "cannot remove {path}: {e}");
                    }
                }
            }
        });
        let _ = dropping.await;
    }
}

/// Whether a pack holds every day of `wanted`.
fn holds(pack: &Pack, wanted: &[TenorDays]) -> bool {
    let spans: Vec<TenorDays> = pack.spans().cloned().collect();
    wanted.iter().all(|w| within(w, &spans))
}

/// Whether one tenor's days are within `spans`.
fn within(days: &TenorDays, spans: &[TenorDays]) -> bool {
    let inside = |s: &&TenorDays| s.tenor == days.tenor;
    spans
        .iter()
        .find(inside)
        .is_some_and(|s: &TenorDays| s.first <= days.first && days.last <= s.last)
}

/// The runs of days read from the cache.
pub(super) fn cached_spans(runs: &[RunRows]) -> Vec<(NaiveDate, NaiveDate)> {
    runs.iter()
        .filter_map(|run| match run {
            RunRows::Have {
                first,
                last,
                cached: true,
                ..
            } => Some((*first, *last)),
            _ => None,
        })
        .collect()
}
