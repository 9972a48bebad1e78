//! A file's times as its footer gives them: the lake's readers pick files
//! by their folder's day, and a file filed under another day (moved,
//! copied, planted) holds values of the day next to it. Its Parquet
//! statistics say which days its values are of without reading them, so
//! that a reader looks into the folders of the days next to those asked
//! for at the cost of their footers alone.

use chrono::{Days, NaiveDate};
use parquet::file::metadata::ParquetMetaData;
use parquet::file::statistics::Statistics;

use domain::timestamp::Micros;

const DAY: Micros = 86_400_000_000;

/// The earliest and latest `generated_on` of a file, from the statistics of
/// its row groups; None if some row group has none (a file written without
/// them): nothing then says which days it holds.
pub fn time_span(metadata: &ParquetMetaData) -> Option<(Micros, Micros)> {
    let column = metadata
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "generated_on")?;
    let mut span: Option<(Micros, Micros)> = None;
    for group in metadata.row_groups() {
        if group.num_rows() == 0 {
            continue;
        }
        let Some(Statistics::Int64(stats)) = group.column(column).statistics() else {
            return None;
        };
        let (Some(&min), Some(&max)) = (stats.min_opt(), stats.max_opt()) else {
            return None;
        };
        span = Some(span.map_or((min, max), |(lo, hi)| (lo.min(min), hi.max(max))));
    }
    // No row: a span that overlaps nothing.
    Some(span.unwrap_or((Micros::MAX, Micros::MIN)))
}

/// Whether a file whose footer is `metadata` may hold a value of
/// `from..=to`: yes unless its statistics say otherwise.
pub fn may_hold(metadata: &ParquetMetaData, (from, to): (Micros, Micros)) -> bool {
    time_span(metadata).is_none_or(|(lo, hi)| lo <= to && hi >= from)
}

/// The times of the UTC days `first..=last`: from the first's midnight to
/// the microsecond before the midnight after the last.
pub fn days_times(first: NaiveDate, last: NaiveDate) -> (Micros, Micros) {
    (midnight(first), midnight(last).saturating_add(DAY - 1))
}

fn midnight(day: NaiveDate) -> Micros {
    day.and_hms_opt(0, 0, 0)
        .expect("midnight exists")
        .and_utc()
        .timestamp_micros()
}

/// The days next to `first..=last` whose folders may hold values of it.
pub fn neighbours(first: NaiveDate, last: NaiveDate) -> impl Iterator<Item = NaiveDate> {
    let before = first.checked_sub_days(Days::new(1));
    let after = last.checked_add_days(Days::new(1));
    before.into_iter().chain(after)
}

#[cfg(test)]
#[path = "span_tests.rs"]
mod tests;
