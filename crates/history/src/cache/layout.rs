//! Where the cache keeps what. In a folder (one person's machine):
//!
//! ```text
//! <cache_dir>/v1/<service>/service.json            base URL and account, for people
//! <cache_dir>/v1/<service>/catalogue/<query>.parquet
//! <cache_dir>/v1/<service>/settlements/<curve>/<tenor>/<first>_<last>.parquet
//! <cache_dir>/v1/<service>/intraday/<curve>/<tenor>/<first>_<last>.parquet
//! ```
//!
//! `<service>` is a digest of the base URL and the account, so that data of
//! different services or accounts never mix.
//!
//! In an object store (a desk's cache, shared by many accounts):
//!
//! ```text
//! <prefix>/v1/services/<service>/service.json       base URL, for people
//! <prefix>/v1/services/<service>/settlements/<curve>/<tenor>/<first>_<last>.parquet
//! <prefix>/v1/services/<service>/intraday/<curve>/<tenor>/<first>_<last>.parquet
//! <prefix>/v1/accounts/<account>/catalogue/<query>.parquet
//! ```
//!
//! There the history is keyed by the service alone (a digest of its base
//! URL), not by account: a settlement is the same whoever fetched it, so
//! one account's pull serves every other's. Whether an account may be
//! served a curve is not the layout's to say: the cache asks before serving
//! one (`licence`). The catalogue stays each account's (`<account>`, the
//! digest of the base URL and the account), since the service lists to
//! each account the curves it licenses; no account's name is written in
//! the store. The folder cache keeps its layout: it is one person's, and a
//! folder written by an earlier version stays readable.
//!
//! Curve ids and tenor names are percent-encoded (`Jan 25` is `Jan%2025`):
//! any text is a safe file name, and `..` cannot climb out (a store's key
//! escapes the `%` once more, `Jan%252025`). A segment file holds the final
//! days `first` to `last` of one tenor, every one of them, rows or none.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{NaiveDate, TimeDelta};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use super::files::Files;
use super::finality::{INTRADAY_MARGIN, SETTLEMENT_MARGIN};
use domain::arrow::TableKind;
use places::digest::digest;

/// Bumped when the files change in a way older versions cannot read.
const FORMAT: &str = "v1";
const SEGMENT_SUFFIX: &str = ".parquet";

/// Characters kept as they are in a file name: letters, digits, `-`, `_`.
const KEPT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_');

/// The two kinds of history the cache keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum History {
    Settlements,
    Intraday,
}

impl History {
    pub const ALL: [History; 2] = [History::Settlements, History::Intraday];

    /// Its folder, and its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            History::Settlements => "settlements",
            History::Intraday => "intraday",
        }
    }

    pub fn table_kind(self) -> TableKind {
        match self {
            History::Settlements => TableKind::Settlements,
            History::Intraday => TableKind::Prices,
        }
    }

    /// How long after a day ends its data is final (see `finality`).
    pub fn margin(self) -> TimeDelta {
        match self {
            History::Settlements => SETTLEMENT_MARGIN,
            History::Intraday => INTRADAY_MARGIN,
        }
    }
}

pub fn encode(name: &str) -> String {
    utf8_percent_encode(name, KEPT).to_string()
}

pub fn decode(name: &str) -> Option<String> {
    percent_decode_str(name)
        .decode_utf8()
        .ok()
        .map(|n| n.into_owned())
}

/// The folder of one service and account.
pub fn service_dir(root: &Path, base_url: &str, account: &str) -> PathBuf {
    let key = digest(&format!("{base_url}\n{account}"));
    root.join(FORMAT).join(&key[..16])
}

/// In a shared store, the history of one service, whatever the account.
pub fn shared_service_dir(root: &Path, base_url: &str) -> PathBuf {
    root.join(FORMAT)
        .join("services")
        .join(&digest(base_url)[..16])
}

/// In a shared store, what is one account's own (its catalogues).
pub fn shared_account_dir(root: &Path, base_url: &str, account: &str) -> PathBuf {
    let key = digest(&format!("{base_url}\n{account}"));
    root.join(FORMAT).join("accounts").join(&key[..16])
}

pub fn curve_dir(service: &Path, history: History, curve_id: &str) -> PathBuf {
    service.join(history.name()).join(encode(curve_id))
}

pub fn tenor_dir(service: &Path, history: History, curve_id: &str, tenor: &str) -> PathBuf {
    curve_dir(service, history, curve_id).join(encode(tenor))
}

pub fn catalogue_file(service: &Path, query_key: &str) -> PathBuf {
    service
        .join("catalogue")
        .join(format!("{}{SEGMENT_SUFFIX}", &digest(query_key)[..16]))
}

/// One file of cached days of a tenor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub path: PathBuf,
    pub first: NaiveDate,
    pub last: NaiveDate,
}

impl Segment {
    pub fn in_dir(dir: &Path, first: NaiveDate, last: NaiveDate) -> Segment {
        Segment {
            path: dir.join(format!("{first}_{last}{SEGMENT_SUFFIX}")),
            first,
            last,
        }
    }

    /// The segment a file name describes (`2025-01-01_2025-06-12.parquet`).
    pub fn from_name(dir: &Path, name: &str) -> Option<Segment> {
        let (first, last) = name.strip_suffix(SEGMENT_SUFFIX)?.split_once('_')?;
        let (first, last) = (first.parse().ok()?, last.parse().ok()?);
        (first <= last).then(|| Segment::in_dir(dir, first, last))
    }
}

/// The segments of a tenor's folder, the last written first (where files
/// overlap, the newest holds what the service last said); none if the
/// folder is missing.
pub fn segments(files: &Files, dir: &Path) -> Vec<Segment> {
    let found = files
        .list(dir)
        .into_iter()
        .filter_map(|file| Some((file.written, Segment::from_name(dir, file.file_name())?)))
        .collect();
    newest_first(found)
}

/// Segments found with the time each was written, the last written first.
pub fn newest_first(mut found: Vec<(SystemTime, Segment)>) -> Vec<Segment> {
    found.sort_by(|(a, x), (b, y)| {
        b.cmp(a)
            .then_with(|| (y.first, y.last).cmp(&(x.first, x.last)))
    });
    found.into_iter().map(|(_, segment)| segment).collect()
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
