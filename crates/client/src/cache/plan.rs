//! Which days of a request the cache holds, and in which file, and which
//! must be fetched: a sweep over the tenor's segments, which may overlap
//! (two writers, or a merge under way). Each cached day is read from one
//! file; each run of missing days is fetched as one piece.

use chrono::{Days, NaiveDate};

use super::layout::Segment;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
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

/// The parts of `start..=end`, in day order, covering each day once.
/// `segments` need not be sorted.
pub fn plan(segments: &[Segment], start: NaiveDate, end: NaiveDate) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut day = Some(start);
    while let Some(from) = day.filter(|d| *d <= end) {
        // Of the files holding this day, the one reaching furthest.
        let holding = segments
            .iter()
            .filter(|s| s.first <= from && from <= s.last)
            .max_by_key(|s| s.last);
        let last = match holding {
            Some(segment) => {
                let last = segment.last.min(end);
                parts.push(Part::Cached {
                    segment: segment.clone(),
                    first: from,
                    last,
                });
                last
            }
            None => {
                let next_held = segments
                    .iter()
                    .map(|s| s.first)
                    .filter(|first| *first > from && *first <= end)
                    .min();
                let last = next_held.and_then(|d| d.pred_opt()).unwrap_or(end);
                push_missing(&mut parts, from, last);
                last
            }
        };
        day = next_day(last);
    }
    parts
}

/// Adds a missing run, joined to the one before if they touch.
fn push_missing(parts: &mut Vec<Part>, first: NaiveDate, last: NaiveDate) {
    if let Some(Part::Missing { last: previous, .. }) = parts.last_mut() {
        if next_day(*previous) == Some(first) {
            *previous = last;
            return;
        }
    }
    parts.push(Part::Missing { first, last });
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
