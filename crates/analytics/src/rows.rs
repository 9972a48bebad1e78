//! A table's rows named: each row's curve and contract as small integers,
//! the names read once each. Every curve function starts here.
//!
//! Names are looked up as [`NameKey`]s, and a run of rows of one name (the
//! package's tables come by curve, then tenor) is compared, not looked up
//! again. Tenor names are parsed once each, not once per row.

use std::collections::HashMap as StdHashMap;

use arrow_array::Array;

use super::input::Input;
use super::name_key::{key_at, NameKey};
use domain::tenor::Tenor;

/// A fast hash for the look-ups of names made for every row.
type HashMap<K, V> = StdHashMap<K, V, ahash::RandomState>;

/// A row with a time and a value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    /// Index into [`NamedRows::curves`].
    pub curve: u32,
    /// Index into that curve's contracts.
    pub contract: u32,
    /// Days (dates) or microseconds (times).
    pub time: i64,
    /// The row's index in the table.
    pub row: u32,
}

#[derive(Debug)]
pub(crate) struct NamedCurve {
    pub curve_id: String,
    /// Every contract the curve has in the table, in calendar order.
    pub contracts: Vec<Tenor>,
}

pub(crate) struct NamedRows {
    /// Sorted by curve id.
    pub curves: Vec<NamedCurve>,
    /// In the table's order, skipping rows without a curve, tenor, time or value.
    pub rows: Vec<Row>,
}

impl NamedRows {
    pub(crate) fn read(input: &Input) -> NamedRows {
        let mut curve_of: HashMap<NameKey, usize> = HashMap::default();
        // Per curve: tenor key -> contract index, and the names in first-seen order.
        let mut tenor_of: Vec<HashMap<NameKey, u32>> = Vec::new();
        let mut tenor_names: Vec<Vec<&str>> = Vec::new();
        let mut last_curve: Option<(NameKey, usize)> = None;
        let mut last_tenor: Option<(NameKey, u32)> = None;
        let mut names: Vec<&str> = Vec::new();
        let mut rows: Vec<Row> = Vec::with_capacity(input.num_rows());
        for row in 0..input.num_rows() {
            if input.time.is_null(row) || input.values.is_null(row) {
                continue;
            }
            let (Some(curve_key), Some(tenor_key)) =
                (key_at(&input.curve_id, row), key_at(&input.tenor, row))
            else {
                continue;
            };
            // Tables come sorted by curve and tenor: a run of one name is
            // compared, not hashed again.
            let curve = match last_curve {
                Some((key, index)) if key == curve_key => index,
                _ => {
                    let index = *curve_of.entry(curve_key).or_insert_with(|| {
                        names.push(input.curve_id.value(row));
                        tenor_of.push(HashMap::default());
                        tenor_names.push(Vec::new());
                        names.len() - 1
                    });
                    last_curve = Some((curve_key, index));
                    last_tenor = None;
                    index
                }
            };
            let contract = match last_tenor {
                Some((key, index)) if key == tenor_key => index,
                _ => {
                    let seen = &mut tenor_names[curve];
                    let index = *tenor_of[curve].entry(tenor_key).or_insert_with(|| {
                        seen.push(input.tenor.value(row));
                        seen.len() as u32 - 1
                    });
                    last_tenor = Some((tenor_key, index));
                    index
                }
            };
            rows.push(Row {
                curve: curve as u32,
                contract,
                time: input.time.value(row),
                row: row as u32,
            });
        }
        // Contracts into calendar order, curves into id order.
        let mut remap: Vec<Vec<u32>> = Vec::with_capacity(names.len());
        let mut contracts: Vec<Vec<Tenor>> = Vec::with_capacity(names.len());
        for seen in &tenor_names {
            let mut parsed: Vec<(Tenor, u32)> = seen
                .iter()
                .zip(0..)
                .map(|(name, i)| (Tenor::parse_lenient(name), i))
                .collect();
            parsed.sort_by(|a, b| a.0.cmp(&b.0));
            let mut map = vec![0; parsed.len()];
            for (rank, (_, first_seen)) in parsed.iter().enumerate() {
                map[*first_seen as usize] = rank as u32;
            }
            remap.push(map);
            contracts.push(parsed.into_iter().map(|(t, _)| t).collect());
        }
        let mut curve_order: Vec<usize> = (0..names.len()).collect();
        curve_order.sort_by_key(|&c| names[c]);
        let mut rank_of_curve = vec![0u32; names.len()];
        for (rank, &c) in curve_order.iter().enumerate() {
            rank_of_curve[c] = rank as u32;
        }
        for row in &mut rows {
            row.contract = remap[row.curve as usize][row.contract as usize];
            row.curve = rank_of_curve[row.curve as usize];
        }
        let curves = curve_order
            .iter()
            .map(|&c| NamedCurve {
                curve_id: names[c].to_owned(),
                contracts: std::mem::take(&mut contracts[c]),
            })
            .collect();
        NamedRows { curves, rows }
    }
}
