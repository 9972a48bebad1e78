//! A table's prices grouped by curve, then time, then contract: the shape
//! every curve function walks. Tenor names are parsed once each, not once
//! per row, and a time's prices are found by binary search.

use std::collections::HashMap as StdHashMap;
use std::ops::Range;

use arrow_array::Array;

/// A fast hash for the look-ups of names made for every row.
type HashMap<K, V> = StdHashMap<K, V, ahash::RandomState>;

use super::input::{Input, TimeKey};
use crate::tenor::{Tenor, TenorKind};

/// The prices of one curve at one time: `cells[range]`, sorted by contract.
#[derive(Clone, Debug)]
pub struct Group {
    pub time: i64,
    pub range: Range<usize>,
}

#[derive(Debug)]
pub struct CurvePanel {
    pub curve_id: String,
    /// Every contract the curve has in the table, in calendar order.
    pub contracts: Vec<Tenor>,
    pub groups: Vec<Group>,
    /// (index into `contracts`, value).
    pub cells: Vec<(u32, f64)>,
}

impl CurvePanel {
    /// The value of `contract` in `group`, if the table has one.
    pub fn value(&self, group: &Group, contract: u32) -> Option<f64> {
        let cells = &self.cells[group.range.clone()];
        cells
            .binary_search_by_key(&contract, |&(c, _)| c)
            .ok()
            .map(|i| cells[i].1)
    }

    /// The indices of the contracts of `kind`, in calendar order.
    pub fn chain(&self, kind: TenorKind) -> Vec<u32> {
        (0..self.contracts.len() as u32)
            .filter(|&i| self.contracts[i as usize].kind() == kind)
            .collect()
    }

    /// The index of the contract named `name`.
    pub fn contract(&self, name: &str) -> Option<u32> {
        self.contracts
            .iter()
            .position(|t| t.name() == name)
            .map(|i| i as u32)
    }
}

pub struct Panel {
    pub key: TimeKey,
    /// Sorted by curve id.
    pub curves: Vec<CurvePanel>,
}

impl Panel {
    /// Groups the rows with a time and a value; the last of two rows of one
    /// contract at one time wins.
    pub fn build(input: &Input) -> Panel {
        let mut curve_of: HashMap<&str, usize> = HashMap::default();
        // Per curve: tenor name -> contract index in first-seen order.
        let mut tenors: Vec<HashMap<&str, u32>> = Vec::new();
        let mut last_curve: Option<(&str, usize)> = None;
        let mut last_tenor: Option<(&str, u32)> = None;
        let mut names: Vec<&str> = Vec::new();
        let mut rows: Vec<(u32, i64, u32, u32)> = Vec::with_capacity(input.num_rows());
        for row in 0..input.num_rows() {
            let (Some(time), Some(_)) = (input.time[row], input.values[row]) else {
                continue;
            };
            if input.curve_id.is_null(row) || input.tenor.is_null(row) {
                continue;
            }
            let (curve_id, tenor) = (input.curve_id.value(row), input.tenor.value(row));
            // Tables come sorted by curve and tenor: a run of one name is
            // compared, not hashed again.
            let curve = match last_curve {
                Some((name, index)) if name == curve_id => index,
                _ => {
                    let index = *curve_of.entry(curve_id).or_insert_with(|| {
                        names.push(curve_id);
                        tenors.push(HashMap::default());
                        names.len() - 1
                    });
                    last_curve = Some((curve_id, index));
                    last_tenor = None;
                    index
                }
            };
            let contract = match last_tenor {
                Some((name, index)) if name == tenor => index,
                _ => {
                    let seen = &mut tenors[curve];
                    let next = seen.len() as u32;
                    let index = *seen.entry(tenor).or_insert(next);
                    last_tenor = Some((tenor, index));
                    index
                }
            };
            rows.push((curve as u32, time, contract, row as u32));
        }
        // Contracts into calendar order, curves into id order.
        let mut remap: Vec<Vec<u32>> = Vec::with_capacity(names.len());
        let mut contracts: Vec<Vec<Tenor>> = Vec::with_capacity(names.len());
        for seen in &tenors {
            let mut parsed: Vec<(Tenor, u32)> = seen
                .iter()
                .map(|(name, &i)| (Tenor::parse_lenient(name), i))
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
            row.2 = remap[row.0 as usize][row.2 as usize];
            row.0 = rank_of_curve[row.0 as usize];
        }
        // The row index breaks ties, so the last row of a duplicate wins below.
        rows.sort_unstable();
        let mut contracts: Vec<Option<Vec<Tenor>>> = contracts.into_iter().map(Some).collect();
        let mut curves: Vec<CurvePanel> = curve_order
            .iter()
            .map(|&c| CurvePanel {
                curve_id: names[c].to_owned(),
                contracts: contracts[c].take().unwrap_or_default(),
                groups: Vec::new(),
                cells: Vec::new(),
            })
            .collect();
        for &(curve, time, contract, row) in &rows {
            let panel = &mut curves[curve as usize];
            let value = input.values[row as usize].expect("rows with a value");
            let at = panel.cells.len();
            match panel.groups.last_mut() {
                Some(group) if group.time == time => {
                    if panel.cells[at - 1].0 == contract {
                        panel.cells[at - 1].1 = value;
                        continue;
                    }
                    group.range.end = at + 1;
                }
                _ => panel.groups.push(Group {
                    time,
                    range: at..at + 1,
                }),
            }
            panel.cells.push((contract, value));
        }
        Panel {
            key: input.key,
            curves,
        }
    }
}
