//! A replay's values in integer columns: each names its tenor by an index,
//! so that the tenors are parsed, checked against the subscriptions and
//! ranked once per distinct name, and the values sorted and deduplicated by
//! comparing numbers, never strings.

use std::sync::Arc;

use ahash::AHashMap;

use super::source::takes;
use domain::live::Subscription;
use domain::tenor::Tenor;
use domain::timestamp::{truncate_to_millis, Micros};
use live::TickSource;

/// Values in replay order (time, then curve, then tenor in calendar order),
/// each once.
#[derive(Debug, Default)]
pub struct Values {
    /// `(curve_id, tenor)` of each index.
    pub names: Vec<(Arc<str>, Arc<str>)>,
    pub rows: Vec<Value>,
}

/// One value: its tenor an index into [`Values::names`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    pub name: u32,
    pub generated_on: Micros,
    pub recorded_at: Micros,
    pub price: f64,
    pub source: TickSource,
}

/// The names met while reading, each given an index once, and whether the
/// subscriptions take it (decided once per name, not per value).
pub struct NameTable<'a> {
    subscriptions: &'a [Subscription],
    curves: AHashMap<Box<str>, u32>,
    tenors: AHashMap<Box<str>, u32>,
    /// `(curve index, tenor index)` to the name's index, or None if the
    /// subscriptions do not take it.
    pairs: AHashMap<(u32, u32), Option<u32>>,
    names: Vec<(Arc<str>, Arc<str>)>,
}

impl<'a> NameTable<'a> {
    pub fn new(subscriptions: &'a [Subscription]) -> NameTable<'a> {
        NameTable {
            subscriptions,
            curves: AHashMap::new(),
            tenors: AHashMap::new(),
            pairs: AHashMap::new(),
            names: Vec::new(),
        }
    }

    /// The index of `curve_id`'s `tenor`, or None if no subscription takes it.
    pub fn index(&mut self, curve_id: &str, tenor: &str) -> Option<u32> {
        let curve = intern(&mut self.curves, curve_id);
        let tenor_index = intern(&mut self.tenors, tenor);
        if let Some(known) = self.pairs.get(&(curve, tenor_index)) {
            return *known;
        }
        let taken = self.subscriptions.iter().any(|s| takes(s, curve_id, tenor));
        let index = taken.then(|| {
            let index = u32::try_from(self.names.len()).expect("fewer than 2^32 tenors");
            self.names.push((Arc::from(curve_id), Arc::from(tenor)));
            index
        });
        self.pairs.insert((curve, tenor_index), index);
        index
    }

    /// The values in replay order, each once: of the values of one tenor at
    /// one millisecond (the interface compares times so, live rule 5), the
    /// one the feed delivered is kept over a backfilled one, else the first
    /// received (as `mc.read_ticks` does).
    pub fn settle(self, mut values: Vec<Value>) -> Values {
        let rank = ranks(&self.names);
        // By millisecond first: the values one keeps of another are then
        // side by side, and the order is already the replay's but within a
        // millisecond. Values come mostly in time order, which this key keeps.
        // Compared by millisecond alone but for ties: the rest of the key
        // (a rank looked up, four more fields) is worked out only for values
        // of one millisecond. Only values equal in every field of the key
        // tie, which give the same replay whichever comes first.
        let rest = |v: &Value| {
            let backfilled = v.source == TickSource::Backfill;
            (
                rank[v.name as usize],
                v.generated_on,
                v.recorded_at,
                backfilled,
                v.price.to_bits(),
            )
        };
        let millis = |v: &Value| truncate_to_millis(v.generated_on);
        let order = |a: &Value, b: &Value| {
            millis(a)
                .cmp(&millis(b))
                .then_with(|| rest(a).cmp(&rest(b)))
        };
        if values.is_sorted_by_key(millis) {
            // A day of one file, or of files one after the other, is in
            // time order already: only each millisecond's few values are
            // left to order, where a sort of the whole day was most of its
            // decoding's time (`benches/replay.py`).
            for run in values.chunk_by_mut(|a, b| millis(a) == millis(b)) {
                if run.len() > 1 {
                    run.sort_by(order);
                }
            }
        } else {
            // Stable: it merges the runs already in order (each file's
            // values, by time), where the unstable sort sorted a day whole,
            // about three times as long.
            values.sort_by(order);
        }
        // In place: a day's values are many, and a copy of them would be the
        // largest thing a replay holds.
        let live = |v: &Value| v.source != TickSource::Backfill;
        let mut kept: usize = 0;
        for read in 0..values.len() {
            let value = values[read];
            if let Some(last) = kept.checked_sub(1).map(|i| &mut values[i]) {
                if last.name == value.name
                    && truncate_to_millis(last.generated_on)
                        == truncate_to_millis(value.generated_on)
                {
                    if live(&value) && !live(last) {
                        *last = value;
                    }
                    continue;
                }
            }
            values[kept] = value;
            kept += 1;
        }
        values.truncate(kept);
        // Within a millisecond, by time then rank (one value per tenor and
        // millisecond now: a total order). Such runs are short.
        for run in values.chunk_by_mut(|a, b| {
            truncate_to_millis(a.generated_on) == truncate_to_millis(b.generated_on)
        }) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|v| (v.generated_on, rank[v.name as usize]));
            }
        }
        Values {
            names: self.names,
            rows: values,
        }
    }
}

fn intern(table: &mut AHashMap<Box<str>, u32>, text: &str) -> u32 {
    if let Some(index) = table.get(text) {
        return *index;
    }
    let index = u32::try_from(table.len()).expect("fewer than 2^32 names");
    table.insert(text.into(), index);
    index
}

/// Each name's place in the order of curve, then tenor in calendar order.
fn ranks(names: &[(Arc<str>, Arc<str>)]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_cached_key(|&i| {
        let (curve, tenor) = &names[i];
        (
            Arc::clone(curve),
            Tenor::parse_lenient(tenor).sort_key(),
            Arc::clone(tenor),
        )
    });
    let mut rank = vec![0; names.len()];
    for (place, index) in order.into_iter().enumerate() {
        rank[index] = place as u32;
    }
    rank
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
