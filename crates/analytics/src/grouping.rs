//! Rows put in order of curve, time and contract in linear time.
//!
//! A comparison sort of every row cost more than all the rest of a curve
//! function on tables in the package's own order (by curve, tenor, then
//! time), where each tenor's run of times has to be interleaved with every
//! other's. Here the times are ranked once (densely when they span a small
//! range, as dates do), each row's cell is counted straight into its curve
//! and time's group, and only each group, a handful of contracts already in
//! order in either common layout, is sorted.

use std::collections::HashMap as StdHashMap;

type HashMap<K, V> = StdHashMap<K, V, ahash::RandomState>;

use super::rows::Row;

/// One curve's cells grouped by time, and each group's range of them.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Grouped {
    /// (time, start, end) of each time's cells, in time order.
    pub groups: Vec<(i64, usize, usize)>,
    /// (contract, value), sorted by contract within a group, one per
    /// contract (the table's last row for a contract given twice).
    pub cells: Vec<(u32, f64)>,
    /// The first contract and time given two different values, if any:
    /// those that refuse such a table say so (`build`); the others take
    /// the later row.
    pub conflict: Option<Conflict>,
}

/// Two rows of one contract at one time whose values differ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Conflict {
    pub time: i64,
    pub contract: u32,
    /// The values in the table's order.
    pub earlier: f64,
    pub later: f64,
}

/// Splits `rows` by curve (below `curves`) and groups each curve's cells
/// by time, reading each row's value with `value`.
pub(crate) fn group_by_curve(
    rows: Vec<Row>,
    curves: usize,
    value: impl Fn(u32) -> f64,
) -> Vec<Grouped> {
    let rows = by_curve(rows, curves);
    let mut out: Vec<Grouped> = (0..curves).map(|_| Grouped::default()).collect();
    for one in rows.chunk_by(|a, b| a.curve == b.curve) {
        out[one[0].curve as usize] = group_by_time(one, &value);
    }
    out
}

/// One curve's rows as cells grouped by time.
fn group_by_time(rows: &[Row], value: &impl Fn(u32) -> f64) -> Grouped {
    let (times, ranks) = rank_times(rows);
    // Counting sort by time rank, stable, straight into the cells.
    let mut starts = vec![0usize; times.len() + 1];
    for &rank in &ranks {
        starts[rank as usize + 1] += 1;
    }
    for rank in 0..times.len() {
        starts[rank + 1] += starts[rank];
    }
    let bounds = starts.clone();
    let mut cells = vec![(0u32, 0.0f64); rows.len()];
    for (r, &rank) in rows.iter().zip(&ranks) {
        let at = &mut starts[rank as usize];
        cells[*at] = (r.contract, value(r.row));
        *at += 1;
    }
    // Each group sorted by contract (stable, so of two rows of one contract
    // the later stays last), keeping the last of each, moved down in place.
    let mut groups = Vec::with_capacity(times.len());
    let mut conflict = None;
    let mut kept = 0;
    for (rank, &time) in times.iter().enumerate() {
        let group = &mut cells[bounds[rank]..bounds[rank + 1]];
        if !group.is_sorted_by_key(|c| c.0) {
            group.sort_by_key(|c| c.0);
        }
        let start = kept;
        for i in bounds[rank]..bounds[rank + 1] {
            if i + 1 < bounds[rank + 1] && cells[i + 1].0 == cells[i].0 {
                let (earlier, later) = (cells[i].1, cells[i + 1].1);
                let same = earlier == later || (earlier.is_nan() && later.is_nan());
                if !same && conflict.is_none() {
                    conflict = Some(Conflict {
                        time,
                        contract: cells[i].0,
                        earlier,
                        later,
                    });
                }
                continue;
            }
            cells[kept] = cells[i];
            kept += 1;
        }
        groups.push((time, start, kept));
    }
    cells.truncate(kept);
    Grouped {
        groups,
        cells,
        conflict,
    }
}

/// `rows` stably sorted by curve (below `curves`).
pub(crate) fn by_curve(rows: Vec<Row>, curves: usize) -> Vec<Row> {
    counting_sort(rows, curves, |r| r.curve as usize)
}

/// The distinct times in order, and each row's rank among them.
pub(crate) fn rank_times(rows: &[Row]) -> (Vec<i64>, Vec<u32>) {
    let (Some(min), Some(max)) = (
        rows.iter().map(|r| r.time).min(),
        rows.iter().map(|r| r.time).max(),
    ) else {
        return (Vec::new(), Vec::new());
    };
    let span = max.abs_diff(min);
    if span <= 4 * rows.len() as u64 + 4096 {
        // Dates, and times on a regular grid: one slot per possible value.
        let mut slot = vec![u32::MAX; span as usize + 1];
        for r in rows {
            slot[(r.time - min) as usize] = 0;
        }
        let mut times = Vec::new();
        for (offset, rank) in slot.iter_mut().enumerate() {
            if *rank == 0 {
                *rank = times.len() as u32;
                times.push(min + offset as i64);
            }
        }
        let ranks = rows.iter().map(|r| slot[(r.time - min) as usize]).collect();
        return (times, ranks);
    }
    let mut seen: HashMap<i64, u32> = HashMap::default();
    let mut last: Option<(i64, u32)> = None;
    let mut first_seen = Vec::with_capacity(rows.len());
    for r in rows {
        let index = match last {
            Some((time, index)) if time == r.time => index,
            _ => {
                let next = seen.len() as u32;
                let index = *seen.entry(r.time).or_insert(next);
                last = Some((r.time, index));
                index
            }
        };
        first_seen.push(index);
    }
    let mut times: Vec<(i64, u32)> = seen.into_iter().collect();
    times.sort_unstable();
    let mut rank_of = vec![0; times.len()];
    for (rank, &(_, index)) in times.iter().enumerate() {
        rank_of[index as usize] = rank as u32;
    }
    let ranks = first_seen
        .into_iter()
        .map(|i| rank_of[i as usize])
        .collect();
    (times.into_iter().map(|(t, _)| t).collect(), ranks)
}

/// `rows` stably sorted by `key`, which is below `keys`.
pub(crate) fn counting_sort(rows: Vec<Row>, keys: usize, key: impl Fn(&Row) -> usize) -> Vec<Row> {
    if rows.is_sorted_by_key(&key) {
        return rows;
    }
    let mut starts = vec![0usize; keys + 1];
    for r in &rows {
        starts[key(r) + 1] += 1;
    }
    for k in 0..keys {
        starts[k + 1] += starts[k];
    }
    let mut out = rows.clone();
    for r in rows {
        let at = &mut starts[key(&r)];
        out[*at] = r;
        *at += 1;
    }
    out
}

#[cfg(test)]
#[path = "grouping_tests.rs"]
mod tests;
