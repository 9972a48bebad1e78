use super::flat;
use crate::delivery::Span;

fn span(first: usize, last: usize, price: f64) -> Span {
    Span { first, last, price }
}

#[test]
fn each_contract_is_flat_at_its_price() {
    let f = flat(&[1.0; 6], &[span(0, 2, 10.0), span(3, 5, 12.0)]);
    assert_eq!(f, [10.0, 10.0, 10.0, 12.0, 12.0, 12.0]);
}

#[test]
fn a_coarser_contract_s_remaining_days_make_its_mean() {
    // A 10-day contract at 11 with its first 4 days priced 8: the other 6
    // days take 13, since (4 * 8 + 6 * 13) / 10 = 11.
    let f = flat(&[1.0; 10], &[span(0, 9, 11.0), span(0, 3, 8.0)]);
    assert_eq!(f, [8.0, 8.0, 8.0, 8.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0]);
}

#[test]
fn weights_count_only_the_days_that_weigh() {
    // Days 2 and 3 weigh nothing: they take the value without moving the mean.
    let weights = [1.0, 1.0, 0.0, 0.0, 1.0, 1.0];
    let f = flat(&weights, &[span(0, 5, 10.0), span(0, 1, 9.0)]);
    assert_eq!(f, [9.0, 9.0, 11.0, 11.0, 11.0, 11.0]);
}

#[test]
fn a_gap_keeps_the_value_of_the_day_before() {
    let f = flat(&[1.0; 7], &[span(0, 1, 5.0), span(4, 6, 7.0)]);
    assert_eq!(f, [5.0, 5.0, 5.0, 5.0, 7.0, 7.0, 7.0]);
}
