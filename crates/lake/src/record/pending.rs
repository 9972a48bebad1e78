//! Ticks received and not yet in a written file: the open file of each day,
//! and the files sealed (by time or by size) that wait their turn to be
//! written, oldest first. Files are written strictly in that order, so a
//! written file never holds a tick later than one still waiting: what the
//! files hold of each tenor is always a prefix of what was received.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::NaiveDate;

use super::file::{encode, recorded_rows_to_batch, FileNote, Recorded};
use super::layout::utc_day;

/// A file sealed and waiting to be written.
pub(crate) struct Sealed {
    pub day: NaiveDate,
    pub rows: Vec<Recorded>,
    /// When its first tick arrived, for the lag between receipt and write.
    pub first_arrival: Instant,
    /// Its name and bytes, fixed on the first attempt so that a retry
    /// writes the very same file (a write that failed after the store kept
    /// it is then replaced by itself, never doubled).
    pub encoded: Option<(String, Bytes, FileNote)>,
}

impl Sealed {
    pub(crate) fn encode(&mut self, name: impl FnOnce(NaiveDate) -> String) -> Result<(), String> {
        if self.encoded.is_none() {
            let note = FileNote::of_rows(&self.rows);
            let bytes = encode(&[recorded_rows_to_batch(&self.rows)?], &note)?;
            self.encoded = Some((name(self.day), bytes, note));
        }
        Ok(())
    }
}

#[derive(Default)]
pub(crate) struct Pending {
    open: BTreeMap<NaiveDate, Vec<Recorded>>,
    open_rows: usize,
    open_since: Option<Instant>,
    pub sealed: VecDeque<Sealed>,
    sealed_rows: usize,
}

impl Pending {
    pub(crate) fn push(&mut self, rows: impl IntoIterator<Item = Recorded>) {
        for row in rows {
            let day = utc_day(row.tick.generated_on);
            self.open.entry(day).or_default().push(row);
            self.open_rows += 1;
            self.open_since.get_or_insert_with(Instant::now);
        }
    }

    /// Every tick held, open or sealed.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &Recorded> {
        let sealed = self.sealed.iter().flat_map(|file| &file.rows);
        self.open.values().flatten().chain(sealed)
    }

    /// Ticks held: received and not yet written.
    pub(crate) fn held(&self) -> usize {
        self.open_rows + self.sealed_rows
    }

    /// Seals the open files if the oldest has been open `rotate`, if they
    /// hold `max_rows`, or if `now` is forced (on stopping). A day with more
    /// than `max_rows` becomes several files.
    pub(crate) fn seal(&mut self, rotate: Duration, max_rows: usize, force: bool) {
        let due = self
            .open_since
            .is_some_and(|since| since.elapsed() >= rotate);
        if self.open_rows == 0 || !(force || due || self.open_rows >= max_rows) {
            return;
        }
        let arrival = self.open_since.take().unwrap_or_else(Instant::now);
        for (day, rows) in std::mem::take(&mut self.open) {
            let mut rows = rows.into_iter().peekable();
            while rows.peek().is_some() {
                let chunk: Vec<Recorded> = rows.by_ref().take(max_rows.max(1)).collect();
                self.sealed_rows += chunk.len();
                self.sealed.push_back(Sealed {
                    day,
                    rows: chunk,
                    first_arrival: arrival,
                    encoded: None,
                });
            }
        }
        self.open_rows = 0;
    }

    /// The oldest sealed file has been written.
    pub(crate) fn written(&mut self) -> Option<Sealed> {
        let sealed = self.sealed.pop_front()?;
        self.sealed_rows -= sealed.rows.len();
        Some(sealed)
    }

    /// Whether any received tick of a day before `day` is unwritten.
    pub(crate) fn holds_before(&self, day: NaiveDate) -> bool {
        self.open.keys().any(|d| *d < day) || self.sealed.iter().any(|s| s.day < day)
    }

    /// Forgets everything unwritten (the recorder will fetch it again).
    pub(crate) fn clear(&mut self) {
        *self = Pending::default();
    }
}

#[cfg(test)]
#[path = "pending_tests.rs"]
mod tests;
