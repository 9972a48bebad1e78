//! Properties of the parsers that read what the service sends (and what users
//! type): tenor names, timestamps, REST bodies, live frames and bulk paths.
//!
//! Each function takes bytes as a fuzzer hands them over and panics when a
//! property does not hold. Refusing an input is fine; panicking, or accepting
//! something and then contradicting itself, is a finding. The cargo-fuzz
//! targets in `fuzz/` call these functions, and `cargo test` runs them on the
//! seed corpus and on proptest inputs, so both check the same things.

// Test code (feature `fuzzing`): a panic is how a property reports a finding.
#![allow(clippy::unwrap_used)]

use std::cmp::Ordering;
use std::path::{Component, Path};

use chrono::{DateTime, Datelike, NaiveDate};
use serde::de::DeserializeOwned;

use crate::wire::{read_frame, Frame};
use domain::arrow::{build_batch, TableKind};
use domain::decode::{
    decode_json, decode_price_rows, page_rows, DecodeError, PriceEndpoint, RequestContext,
};
use domain::live::{decode_server_message, format_millis, LivePrice, ServerMessage};
use domain::records::{BulkStatus, BulkSubmission, CurveQuotation, Page, PriceRecord};
use domain::rows::PriceRow;
use domain::tenor::{Tenor, TenorKind};
use domain::timestamp::{days_since_epoch, parse_date, parse_timestamp, truncate_to_millis};
use history::bulk::partition::{file_name, Partition};

/// A tenor name: parsing keeps the name, a calendar period is a real month,
/// quarter or 5-day window, its canonical name parses to the same period, and
/// the order is total and agrees with equality and with the calendar.
pub fn tenor(data: &[u8]) {
    let Ok(name) = std::str::from_utf8(data) else {
        return;
    };
    let lenient = Tenor::parse_lenient(name);
    assert_eq!(lenient.name(), name);
    match Tenor::parse(name) {
        Ok(tenor) => {
            assert_eq!(tenor.to_string(), name);
            assert_eq!(lenient.sort_key(), tenor.sort_key());
            check_period(&tenor);
            if let Some(canonical) = canonical_tenor_name(&tenor) {
                let again = Tenor::parse(&canonical)
                    .unwrap_or_else(|e| panic!("canonical form of {name:?} refused: {e}"));
                assert_eq!(again.kind(), tenor.kind(), "{name:?} vs {canonical:?}");
                assert_eq!(
                    again.sort_key(),
                    tenor.sort_key(),
                    "{name:?} vs {canonical:?}"
                );
                // Only letter case may differ from the canonical spelling:
                // two spellings of one period would be two tenors in a table.
                assert!(
                    canonical.eq_ignore_ascii_case(name),
                    "{name:?} is {canonical:?}"
                );
            }
        }
        Err(error) => {
            assert_eq!(error.name, name);
            assert_eq!(lenient.kind(), TenorKind::Other);
        }
    }
    check_tenor_order(&lenient);
}

fn check_period(tenor: &Tenor) {
    let name = tenor.name();
    let (rank, _, _) = tenor.sort_key();
    let (start, end) = match tenor.kind() {
        TenorKind::Continuous | TenorKind::Other => {
            assert_eq!((tenor.start(), tenor.end()), (None, None), "{name:?}");
            let expected = if tenor.kind() == TenorKind::Continuous {
                0
            } else {
                2
            };
            assert_eq!(rank, expected, "{name:?}");
            return;
        }
        _ => (tenor.start().unwrap(), tenor.end().unwrap()),
    };
    assert_eq!(
        tenor.sort_key(),
        (1, start.num_days_from_ce(), end.num_days_from_ce())
    );
    assert!((2000..=2099).contains(&start.year()), "{name:?}");
    assert_eq!(start.year(), end.year(), "{name:?}");
    let days = (end - start).num_days() + 1;
    match tenor.kind() {
        TenorKind::Month => {
            assert_eq!(start.day(), 1, "{name:?}");
            assert_eq!(start.month(), end.month(), "{name:?}");
            assert!(is_last_of_month(end), "{name:?}");
        }
        TenorKind::Quarter => {
            assert_eq!((start.day(), start.month() % 3), (1, 1), "{name:?}");
            assert_eq!(end.month(), start.month() + 2, "{name:?}");
            assert!(is_last_of_month(end), "{name:?}");
        }
        _ => {
            assert!([1, 6, 11, 16, 21, 26].contains(&start.day()), "{name:?}");
            assert_eq!(start.month(), end.month(), "{name:?}");
            if start.day() < 26 {
                assert_eq!(days, 5, "{name:?}");
            } else {
                assert!(is_last_of_month(end), "{name:?}");
            }
        }
    }
}

fn is_last_of_month(day: NaiveDate) -> bool {
    day.succ_opt().is_none_or(|next| next.day() == 1)
}

/// How the package itself writes the period of a parsed tenor.
fn canonical_tenor_name(tenor: &Tenor) -> Option<String> {
    let start = tenor.start();
    match (tenor.kind(), start) {
        (TenorKind::Continuous, _) => Some(format!("C {:02}", tenor.sort_key().1)),
        (TenorKind::Month, Some(s)) => Some(Tenor::month_name(s.year(), s.month())),
        (TenorKind::Quarter, Some(s)) => {
            Some(format!("Q{} {:02}", s.month().div_ceil(3), s.year() % 100))
        }
        (TenorKind::Window, Some(s)) => Some(Tenor::window_name(s.year(), s.month(), s.day())),
        _ => None,
    }
}

/// Names of every kind, to compare a fuzzed tenor with.
const REFERENCE_TENORS: [&str; 10] = [
    "C 00",
    "C 02",
    "1-5 Jan 25",
    "Jan 25",
    "Q1 25",
    "26-EOM Feb 24",
    "Dec 99",
    "Cal 25",
    "",
    "zzz",
];

fn check_tenor_order(tenor: &Tenor) {
    let mut all: Vec<Tenor> = REFERENCE_TENORS.map(Tenor::parse_lenient).to_vec();
    all.push(tenor.clone());
    for other in &all {
        let (a, b) = (tenor.cmp(other), other.cmp(tenor));
        assert_eq!(a, b.reverse(), "{tenor:?} vs {other:?}");
        assert_eq!(
            a == Ordering::Equal,
            tenor == other,
            "{tenor:?} vs {other:?}"
        );
        if tenor.sort_key() != other.sort_key() {
            assert_eq!(a, tenor.sort_key().cmp(&other.sort_key()));
        }
        if let (Some(x), Some(y)) = (tenor.start(), other.start()) {
            if x < y {
                assert_eq!(a, Ordering::Less, "{tenor:?} vs {other:?}");
            }
        }
    }
    // Sorting compares neighbours only: every later pair must agree too, or
    // the order is not transitive.
    all.sort();
    for (i, earlier) in all.iter().enumerate() {
        for later in &all[i + 1..] {
            assert_ne!(
                earlier.cmp(later),
                Ordering::Greater,
                "{earlier:?} vs {later:?}"
            );
        }
    }
}

/// A timestamp: what parses is an instant chrono can represent; its canonical
/// form (and the live feed's millisecond form) parses back to it; a UTC suffix
/// changes nothing; and the same text with its fraction cut or padded to any
/// length from 0 to 9 digits gives the same instant, truncated.
pub fn timestamp(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_date(text);
    let micros = match parse_timestamp(text) {
        Ok(micros) => micros,
        Err(error) => return assert_eq!(error.value, text),
    };
    let instant = DateTime::from_timestamp_micros(micros)
        .unwrap_or_else(|| panic!("{text:?} parsed to {micros}, out of range"));
    let canonical = instant.format("%Y-%m-%dT%H:%M:%S%.6f").to_string();
    assert_eq!(parse_timestamp(&canonical), Ok(micros), "{text:?}");
    let millis = format_millis(micros);
    assert_eq!(parse_timestamp(&millis), Ok(truncate_to_millis(micros)));

    let naive = text
        .strip_suffix('Z')
        .or_else(|| text.strip_suffix("+00:00"))
        .unwrap_or(text);
    if naive.len() == text.len() {
        for suffix in ["Z", "+00:00"] {
            let with_suffix = format!("{text}{suffix}");
            assert_eq!(parse_timestamp(&with_suffix), Ok(micros), "{with_suffix:?}");
        }
    }
    let (whole, fraction) = naive.split_once('.').unwrap_or((naive, ""));
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return;
    }
    for digits in 0..=9 {
        let variant = with_fraction_length(whole, fraction, digits);
        let expected = if digits < fraction.len() {
            let unit = 10_i64.pow(6 - digits.min(6) as u32);
            micros - micros.rem_euclid(unit)
        } else {
            micros
        };
        assert_eq!(
            parse_timestamp(&variant),
            Ok(expected),
            "{text:?} as {variant:?}"
        );
    }
}

fn with_fraction_length(whole: &str, fraction: &str, digits: usize) -> String {
    if digits == 0 {
        return whole.to_owned();
    }
    let kept = &fraction[..digits.min(fraction.len())];
    format!("{whole}.{kept:0<digits$}")
}

fn check_date(text: &str) {
    let Ok(date) = parse_date(text) else {
        return;
    };
    let canonical = date.format("%Y-%m-%d").to_string();
    assert_eq!(parse_date(&canonical), Ok(date), "{text:?}");
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap();
    assert_eq!(i64::from(days_since_epoch(date)), (date - epoch).num_days());
}

const CURVE: &str = "6f1e2d3c-0000-4000-8000-000000000001";

/// Every price endpoint, with the table its rows go to.
const PRICE_ENDPOINTS: [(PriceEndpoint, TableKind); 7] = [
    (PriceEndpoint::LastSettlement, TableKind::Prices),
    (PriceEndpoint::LastSettlementAll, TableKind::Prices),
    (PriceEndpoint::LastAssessments, TableKind::Assessments),
    (PriceEndpoint::LastAssessmentsAll, TableKind::Assessments),
    (PriceEndpoint::OngoingIntraday, TableKind::Prices),
    (PriceEndpoint::HistoricalSettlements, TableKind::Settlements),
    (PriceEndpoint::HistoricalIntraday, TableKind::Prices),
];

/// Field names of the interface's records and envelopes: REST bodies built
/// from them (by the shaped fuzz target and the proptest smoke run) reach
/// past the JSON syntax into the records.
pub const INTERFACE_KEYS: [&str; 31] = [
    "items",
    "self",
    "next",
    "prev",
    "last",
    "generatedOn",
    "price",
    "units",
    "tenor",
    "dependencies",
    "metadata",
    "name",
    "value",
    "id",
    "tenorName",
    "date",
    "singaporeSnapshot",
    "londonSnapshot",
    "newYorkSnapshot",
    "job_id",
    "date_range",
    "effective_start",
    "effective_end",
    "status",
    "presigned_urls",
    "url",
    "path",
    "size",
    "filters",
    "properties",
    "contracts",
];

/// A REST body, read as the answer of every endpoint: it gives rows that make
/// a table, or a `DecodeError` naming the endpoint and a field. Reading with
/// and without tracking the field path accepts the same bodies.
pub fn rest_records(body: &[u8]) {
    for (endpoint, kind) in PRICE_ENDPOINTS {
        for tenor in [None, Some("Jan 25")] {
            let request = RequestContext {
                curve_id: CURVE,
                tenor,
            };
            match decode_price_rows(endpoint, body, request) {
                Ok(rows) => check_rows(endpoint, kind, rows),
                Err(error) => check_decode_error(&error, endpoint.describe()),
            }
        }
    }
    let intraday = PriceEndpoint::HistoricalIntraday;
    if let Some(page) = check_json::<Page<PriceRecord>>(intraday.describe(), body) {
        let request = RequestContext {
            curve_id: CURVE,
            tenor: Some("Jan 25"),
        };
        match page_rows(intraday, page.items, request) {
            Ok(rows) => check_rows(intraday, TableKind::Prices, rows),
            Err(error) => check_decode_error(&error, intraday.describe()),
        }
    }
    check_json::<Page<CurveQuotation>>("GET /catalogue", body);
    check_json::<BulkSubmission>("POST /bulk-download/job-submit", body);
    check_json::<BulkStatus>("GET /bulk-download/job-status/<job_id>", body);
}

fn check_json<T: DeserializeOwned>(endpoint: &str, body: &[u8]) -> Option<T> {
    let plain = serde_json::from_slice::<T>(body).is_ok();
    match decode_json::<T>(endpoint, body) {
        Ok(value) => {
            assert!(plain, "accepted only when tracking the field path");
            Some(value)
        }
        Err(error) => {
            assert!(!plain, "refused only when tracking the field path: {error}");
            check_decode_error(&error, endpoint);
            None
        }
    }
}

fn check_rows(endpoint: PriceEndpoint, kind: TableKind, rows: Vec<PriceRow>) {
    if endpoint == PriceEndpoint::LastSettlement {
        assert_eq!(rows.len(), 1);
    }
    for row in &rows {
        assert_eq!(&*row.curve_id, CURVE);
        assert!(row.price.is_finite(), "{row:?}");
        if let Some(at) = row.generated_on {
            assert!(DateTime::from_timestamp_micros(at).is_some(), "{row:?}");
        }
        assert_eq!(row.snapshot.is_some(), kind == TableKind::Assessments);
        if kind != TableKind::Settlements {
            assert_eq!(row.date, None);
        }
    }
    let count = rows.len();
    let batch = build_batch(kind, rows).unwrap_or_else(|e| panic!("{endpoint:?}: {e}"));
    assert!(batch.num_rows() <= count && (batch.num_rows() > 0) == (count > 0));
}

fn check_decode_error(error: &DecodeError, endpoint: &str) {
    assert_eq!(error.endpoint, endpoint);
    assert!(!error.field.is_empty(), "{error:?}");
    let shown = error.to_string();
    assert!(
        shown.contains(endpoint) && shown.contains(&error.field),
        "{shown}"
    );
}

/// A live frame: the fast reader of the client and the lenient reader of the
/// domain agree, and a message read encodes to a frame that reads back the
/// same (a price at millisecond precision, as the feed sends it).
pub fn live_message(data: &[u8]) {
    // WebSocket text frames are UTF-8 by the protocol.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let general = decode_server_message(text);
    match (&general, read_frame(text)) {
        (
            Ok(ServerMessage::Price(p)),
            Ok(Frame::Price {
                curve_id,
                tenor,
                at,
                price,
            }),
        ) => {
            let fast = (&*curve_id, &*tenor, at, price);
            assert_eq!(
                fast,
                (&*p.curve_id, &*p.tenor, p.generated_on, p.price),
                "{text:?}"
            );
        }
        (Ok(message), Ok(Frame::Other(other))) => {
            assert!(!matches!(message, ServerMessage::Price(_)), "{text:?}");
            assert_eq!(message, &other, "{text:?}");
        }
        (Err(a), Err(b)) => assert_eq!(a, &b),
        (general, fast) => panic!("{text:?}: readers disagree: {general:?} vs {fast:?}"),
    }
    let Ok(message) = general else {
        return;
    };
    let expected = match &message {
        ServerMessage::Price(price) => {
            assert!(DateTime::from_timestamp_micros(price.generated_on).is_some());
            ServerMessage::Price(LivePrice {
                generated_on: truncate_to_millis(price.generated_on),
                ..price.clone()
            })
        }
        other => other.clone(),
    };
    let frame = message.encode();
    assert_eq!(
        decode_server_message(&frame),
        Ok(expected),
        "{text:?} -> {frame:?}"
    );
}

/// A bulk `path`: accepted exactly when it is `vertical=<name>/year=<YYYY>/
/// month=<MM>` (a name of letters, digits, `_` and inner spaces), and then
/// the file it names stays inside the destination. The file name taken from
/// a download URL is always one plain `*.parquet` component.
pub fn bulk_path(data: &[u8]) {
    let Ok(path) = std::str::from_utf8(data) else {
        return;
    };
    let accepted = Partition::parse(path);
    assert_eq!(accepted.is_ok(), has_partition_shape(path), "{path:?}");
    if let Ok(partition) = accepted {
        assert!(!path.contains("..") && !path.starts_with('/'), "{path:?}");
        assert!(!path.contains(['\\', '\0']), "{path:?}");
        let relative = partition.relative_dir();
        assert_eq!(relative.to_str(), Some(path));
        let dest = Path::new("/data/bulk");
        let file = dest.join(&relative).join(file_name(path, 0));
        let inside = file.strip_prefix(dest).expect("under the destination");
        assert!(inside
            .components()
            .all(|c| matches!(c, Component::Normal(_))));
        assert_eq!(inside.components().count(), 4, "{file:?}");
    }
    let name = file_name(path, 7);
    assert!(
        name.ends_with(".parquet") && !name.starts_with('.'),
        "{name:?}"
    );
    let mut components = Path::new(&name).components();
    assert!(
        matches!(components.next(), Some(Component::Normal(_))),
        "{name:?}"
    );
    assert!(
        components.next().is_none() && !name.contains(['\\', '\0']),
        "{name:?}"
    );
}

/// The shape the interface gives, checked by hand, independently of the parser.
fn has_partition_shape(path: &str) -> bool {
    let mut parts = path.split('/');
    let (Some(vertical), Some(year), Some(month), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let fields = (
        vertical.strip_prefix("vertical="),
        year.strip_prefix("year="),
        month.strip_prefix("month="),
    );
    let (Some(name), Some(year), Some(month)) = fields else {
        return false;
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let name_ok = (1..=40).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b' ' || b == b'_')
        && !name.starts_with(' ')
        && !name.ends_with(' ');
    name_ok && digits(year, 4) && digits(month, 2) && ("01"..="12").contains(&month)
}

#[cfg(test)]
#[path = "fuzzing_tests.rs"]
mod tests;
