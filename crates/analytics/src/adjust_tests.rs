use super::{apply, rolls, Adjust, ChainPrices, Context, Roll};
use crate::input::TimeKey;
use domain::tenor::Tenor;

fn tenors() -> Vec<Tenor> {
    ["Jan 25", "Feb 25", "Mar 25"]
        .map(|n| Tenor::parse(n).unwrap())
        .into()
}

const CHAIN: [u32; 3] = [0, 1, 2];

/// Days 0..5 as dates from 2025-01-01 (20089 days after 1970-01-01).
const TIMES: [i64; 5] = [20089, 20090, 20091, 20092, 20093];

fn context(contracts: &[Tenor]) -> Context<'_> {
    Context {
        curve_id: "a",
        column: "M1",
        contracts,
        chain: &CHAIN,
        key: TimeKey::Date,
        times: &TIMES,
    }
}

#[test]
fn names_are_parsed_and_others_refused() {
    assert_eq!(Adjust::parse("none").unwrap(), Adjust::None);
    assert_eq!(Adjust::parse("difference").unwrap(), Adjust::Difference);
    assert_eq!(Adjust::parse("ratio").unwrap(), Adjust::Ratio);
    let error = Adjust::parse("panama").unwrap_err().to_string();
    assert!(error.contains("unknown adjust \"panama\""), "{error}");
}

#[test]
fn the_later_of_two_rows_counts_and_non_finite_prices_are_none() {
    let prices = ChainPrices::new(
        2,
        [
            (0, 1, 5.0),
            (0, 0, 4.0),
            (0, 1, 6.0),
            (1, 1, 9.0),
            (1, 0, f64::NAN),
        ]
        .into_iter(),
    );
    assert_eq!(prices.0[0], [(0, 4.0), (1, 6.0)]);
    assert_eq!(prices.0[1], [(1, 9.0)]);
    assert_eq!(prices.common(0, 1, 0, 1), Some((1, 6.0, 9.0)));
    assert_eq!(prices.common(0, 1, 0, 0), None);
}

#[test]
fn each_roll_is_measured_on_the_last_time_the_old_contract_is_held() {
    // Jan held at ranks 0-1, Feb at 2-3, Mar at 4.
    let held = [0, 0, 1, 1, 2].map(Some);
    let prices = ChainPrices::new(
        3,
        [
            (0, 0, 9.0),
            (0, 1, 10.0),
            (1, 0, 11.0),
            (1, 1, 12.0),
            (1, 2, 13.0),
            (1, 3, 16.0),
            (2, 3, 20.0),
            (2, 4, 21.0),
        ]
        .into_iter(),
    );
    let contracts = tenors();
    let difference = rolls(&held, &prices, Adjust::Difference, &context(&contracts)).unwrap();
    let expected = [
        Roll {
            at: 2,
            measured: 1,
            gap: 2.0,
        },
        Roll {
            at: 4,
            measured: 3,
            gap: 4.0,
        },
    ];
    assert_eq!(difference, expected);
    let ratio = rolls(&held, &prices, Adjust::Ratio, &context(&contracts)).unwrap();
    assert_eq!(ratio[0].gap, 1.2);
    assert_eq!(ratio[1].gap, 1.25);
    assert!(rolls(&held, &prices, Adjust::None, &context(&contracts))
        .unwrap()
        .is_empty());
}

#[test]
fn a_missing_price_is_measured_at_the_latest_earlier_common_time() {
    let held = [0, 0, 0, 1].map(Some);
    // Feb has no price at rank 2, the last time Jan is held; Jan none at 1.
    let prices = ChainPrices::new(
        3,
        [
            (0, 0, 8.0),
            (0, 2, 10.0),
            (1, 0, 11.0),
            (1, 1, 12.0),
            (1, 3, 13.0),
        ]
        .into_iter(),
    );
    let contracts = tenors();
    let out = rolls(&held, &prices, Adjust::Difference, &context(&contracts)).unwrap();
    assert_eq!(
        out,
        [Roll {
            at: 3,
            measured: 0,
            gap: 3.0
        }]
    );
}

#[test]
fn a_roll_without_a_common_time_while_held_is_refused_naming_it() {
    // Jan held at 0-1 then Feb at 2-3 then Mar: Feb and Mar are both priced
    // at rank 1, but Feb is not held then, so that is not a time to measure at.
    let held = [0, 0, 1, 1, 2].map(Some);
    let prices = ChainPrices::new(
        3,
        [
            (0, 1, 10.0),
            (1, 1, 12.0),
            (1, 2, 13.0),
            (2, 1, 15.0),
            (2, 4, 21.0),
        ]
        .into_iter(),
    );
    let contracts = tenors();
    let error = rolls(&held, &prices, Adjust::Difference, &context(&contracts))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("curve a: the roll of M1 from Feb 25 to Mar 25 cannot be measured")
            && error.contains("no time from 2025-01-03 to 2025-01-04"),
        "{error}"
    );
}

fn ratio_error(held: &[Option<usize>], rows: &[(usize, u32, f64)]) -> String {
    let contracts = tenors();
    let prices = ChainPrices::new(3, rows.iter().copied());
    // The difference is defined all the same.
    assert!(rolls(held, &prices, Adjust::Difference, &context(&contracts)).is_ok());
    rolls(held, &prices, Adjust::Ratio, &context(&contracts))
        .unwrap_err()
        .to_string()
}

#[test]
fn a_ratio_of_zero_or_a_sign_change_is_refused() {
    let held = [0, 1].map(Some);
    for old in [0.0, -2.0] {
        let error = ratio_error(&held, &[(0, 0, old), (1, 0, 3.0), (1, 1, 3.0)]);
        assert!(
            error.starts_with("curve a: Jan 25 is priced")
                && error.contains("on 2025-01-01")
                && error.contains("a difference adjustment takes"),
            "{error}"
        );
    }
}

#[test]
fn a_ratio_of_two_prices_below_zero_is_refused() {
    // -4 / -2 is 2, yet the series it scales crosses zero.
    let error = ratio_error(
        &[Some(0), Some(1)],
        &[(0, 0, -2.0), (1, 0, -4.0), (1, 1, 3.0)],
    );
    assert!(
        error.contains("Jan 25 is priced -2 on 2025-01-01"),
        "{error}"
    );
}

#[test]
fn a_price_below_zero_on_a_day_without_a_roll_is_refused() {
    // Jan held on days 0-2 and negative on day 0 only; the roll is measured
    // on day 2 between prices above zero.
    let rows = [
        (0, 0, -1.0),
        (0, 1, 2.0),
        (0, 2, 2.0),
        (1, 2, 3.0),
        (1, 3, 3.0),
    ];
    let error = ratio_error(&[Some(0), Some(0), Some(0), Some(1)], &rows);
    assert!(
        error.contains("Jan 25 is priced -1 on 2025-01-01") && error.contains("M1 holds it"),
        "{error}"
    );
}

#[test]
fn a_new_contract_below_zero_where_its_roll_is_measured_is_refused() {
    // Feb is not held before the roll: its price on day 1 is only the
    // roll's numerator.
    let rows = [(0, 0, 2.0), (0, 1, 2.0), (1, 1, -3.0), (1, 2, 3.0)];
    let error = ratio_error(&[Some(0), Some(0), Some(1)], &rows);
    assert!(
        error.contains("Feb 25 is priced -3 on 2025-01-02")
            && error.contains("the roll of M1 from Jan 25 to Feb 25"),
        "{error}"
    );
}

#[test]
fn no_roll_past_the_chain() {
    let held = [Some(1), Some(2), None, None];
    let prices = ChainPrices::new(3, [(1, 0, 1.0), (2, 0, 2.0), (2, 1, 2.0)].into_iter());
    let contracts = tenors();
    let out = rolls(&held, &prices, Adjust::Difference, &context(&contracts)).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].at, 1);
}

#[test]
fn earlier_values_take_the_sum_or_product_of_later_gaps() {
    let rolls = [
        Roll {
            at: 2,
            measured: 1,
            gap: 2.0,
        },
        Roll {
            at: 4,
            measured: 3,
            gap: 4.0,
        },
    ];
    let raw = [Some(9.0), None, Some(13.0), Some(16.0), Some(21.0)];
    let mut cells = raw;
    apply(&mut cells, &rolls, Adjust::Difference);
    assert_eq!(
        cells,
        [Some(15.0), None, Some(17.0), Some(20.0), Some(21.0)]
    );
    let ratios = [
        Roll {
            gap: 1.2,
            ..rolls[0]
        },
        Roll {
            gap: 1.25,
            ..rolls[1]
        },
    ];
    let mut cells = raw;
    apply(&mut cells, &ratios, Adjust::Ratio);
    assert_eq!(
        cells,
        [Some(13.5), None, Some(16.25), Some(20.0), Some(21.0)]
    );
}
