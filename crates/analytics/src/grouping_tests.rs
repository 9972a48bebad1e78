use super::*;

fn row(curve: u32, contract: u32, time: i64, row: u32) -> Row {
    Row {
        curve,
        contract,
        time,
        row,
    }
}

/// (curve, time, [(contract, row)]): one curve's cells at one time.
type Bucket = (u32, i64, Vec<(u32, u32)>);

/// Every bucket, in the order given.
/// Each row's value is its index, so the cells say which row they came from.
fn buckets(rows: Vec<Row>, curves: usize) -> Vec<Bucket> {
    let mut out = Vec::new();
    for (curve, grouped) in group_by_curve(rows, curves, f64::from).iter().enumerate() {
        for &(time, start, end) in &grouped.groups {
            let cells = grouped.cells[start..end]
                .iter()
                .map(|&(contract, row)| (contract, row as u32))
                .collect();
            out.push((curve as u32, time, cells));
        }
    }
    out
}

/// The same, by a plain sort: what the buckets must equal.
fn sorted(rows: &[Row]) -> Vec<Bucket> {
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| (r.curve, r.time, r.contract, r.row));
    let mut out: Vec<Bucket> = Vec::new();
    for r in rows {
        match out.last_mut() {
            Some((c, t, cells)) if *c == r.curve && *t == r.time => match cells.last_mut() {
                Some(last) if last.0 == r.contract => last.1 = r.row,
                _ => cells.push((r.contract, r.row)),
            },
            _ => out.push((r.curve, r.time, vec![(r.contract, r.row)])),
        }
    }
    out
}

#[test]
fn rows_by_tenor_then_time_come_out_by_time_then_contract() {
    // Two contracts, each with three days, as the package orders them.
    let rows: Vec<Row> = [(0, 10), (0, 11), (0, 12), (1, 11), (1, 12), (1, 13)]
        .iter()
        .enumerate()
        .map(|(i, &(contract, day))| row(0, contract, day, i as u32))
        .collect();
    assert_eq!(
        buckets(rows, 1),
        vec![
            (0, 10, vec![(0, 0)]),
            (0, 11, vec![(0, 1), (1, 3)]),
            (0, 12, vec![(0, 2), (1, 4)]),
            (0, 13, vec![(1, 5)]),
        ]
    );
}

#[test]
fn the_later_of_two_rows_of_one_contract_and_time_is_kept() {
    let rows = vec![row(0, 1, 5, 0), row(0, 0, 5, 1), row(0, 1, 5, 2)];
    assert_eq!(buckets(rows, 1), vec![(0, 5, vec![(0, 1), (1, 2)])]);
}

#[test]
fn any_order_of_curves_times_and_contracts_matches_a_plain_sort() {
    // A fixed pseudo-random shuffle over dense (dates) and sparse
    // (microsecond) times, with duplicates and curves out of order.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for spread in [10i64, 86_400_000_000] {
        let rows: Vec<Row> = (0..2_000u32)
            .map(|i| {
                row(
                    next(3) as u32,
                    next(7) as u32,
                    next(40) as i64 * spread - 1_000,
                    i,
                )
            })
            .collect();
        assert_eq!(buckets(rows.clone(), 3), sorted(&rows), "spread {spread}");
    }
}

#[test]
fn no_rows_make_no_buckets() {
    assert!(buckets(Vec::new(), 0).is_empty());
}

#[test]
fn a_curve_without_rows_has_no_groups() {
    let grouped = group_by_curve(vec![row(1, 0, 5, 0)], 3, f64::from);
    assert_eq!(grouped.len(), 3);
    assert_eq!(grouped[0], Grouped::default());
    assert_eq!(grouped[1].groups, vec![(5, 0, 1)]);
}

#[test]
fn the_first_contract_and_time_given_two_values_is_the_conflict() {
    // Rows 0 and 2 give contract 1 at time 5 two values; rows 3 and 4 give
    // contract 0 at time 6 one value twice, which is no conflict.
    let rows = vec![row(0, 1, 5, 0), row(0, 0, 5, 1), row(0, 1, 5, 2)];
    let values = [10.0, 1.0, 12.0, 7.0, 7.0];
    let grouped = group_by_curve(rows, 1, |r| values[r as usize]);
    let expected = Conflict {
        time: 5,
        contract: 1,
        earlier: 10.0,
        later: 12.0,
    };
    assert_eq!(grouped[0].conflict, Some(expected));
    // The later row is still the cell.
    assert_eq!(grouped[0].cells, [(0, 1.0), (1, 12.0)]);
    let same = vec![row(0, 0, 6, 3), row(0, 0, 6, 4)];
    assert_eq!(
        group_by_curve(same, 1, |r| values[r as usize])[0].conflict,
        None
    );
}
