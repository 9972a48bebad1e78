//! Which days of a request the cache holds, and in which file, and which
//! must be fetched. A tenor's files may overlap (two writers at once, a
//! refresh of some days of a wider file): each day is read from the first
//! file of the list that holds it, and the list comes newest first, so the
//! last written wins. Each run of missing days is fetched as one.

use chrono::{Days, NaiveDate};

use super::layout::Segment;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Run {
    /// Days `first..=last`, read from `segment`.
    Cached {
        segment: Segment,
        first: NaiveDate,
        last: NaiveDate,
    },
    /// Days `first..=last`, to fetch.
    Missing { first: NaiveDate, last: NaiveDate },
}

fn next_day(day: NaiveDate) -> Option<NaiveDate> {
    day.checked_add_days(Days::new(1))
}

/// The runs of `start..=end`, in day order, covering each day once:
/// each day from the first of `segments` (in order of preference) that
/// holds it.
pub fn plan(segments: &[Segment], start: NaiveDate, end: NaiveDate) -> Vec<Run> {
    // Where the owner of a day may change: the request's start and every
    // file's first day and the day after its last, within the request.
    let mut breaks: Vec<NaiveDate> = segments
        .iter()
        .flat_map(|s| [Some(s.first), next_day(s.last)])
        .flatten()
        .filter(|day| start < *day && *day <= end)
        .collect();
    breaks.push(start);
    breaks.sort();
    breaks.dedup();
    let mut runs = Vec::new();
    for (i, from) in breaks.iter().copied().enumerate() {
        let last = breaks
            .get(i + 1)
            .and_then(|next| next.pred_opt())
            .unwrap_or(end);
        match segments.iter().find(|s| s.first <= from && from <= s.last) {
            Some(segment) => push_cached(&mut runs, segment, from, last),
            None => push_missing(&mut runs, from, last),
        }
    }
    runs
}

/// Adds cached days, joined to the run before if it is the same file's.
fn push_cached(runs: &mut Vec<Run>, segment: &Segment, first: NaiveDate, last: NaiveDate) {
    if let Some(Run::Cached {
        segment: previous,
        last: previous_last,
        ..
    }) = runs.last_mut()
    {
        if previous == segment {
            *previous_last = last;
            return;
        }
    }
    runs.push(Run::Cached {
        segment: segment.clone(),
        first,
        last,
    });
}

/// Adds a missing run, joined to the one before if they touch.
fn push_missing(runs: &mut Vec<Run>, first: NaiveDate, last: NaiveDate) {
    if let Some(Run::Missing { last: previous, .. }) = runs.last_mut() {
        if next_day(*previous) == Some(first) {
            *previous = last;
            return;
        }
    }
    runs.push(Run::Missing { first, last });
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
