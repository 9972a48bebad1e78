//! The piecewise-flat curve: each day takes the price of the finest
//! contract covering it, and a coarser contract's remaining days the one
//! value that makes its weighted mean its price. A day no contract covers
//! (a gap between contracts) keeps the value of the day before, as a step
//! curve does.

use super::delivery::Span;

/// The curve over `weights.len()` days from `spans`, the first of which
/// starts on day 0.
pub(crate) fn flat(weights: &[f64], spans: &[Span]) -> Vec<f64> {
    let mut f = vec![f64::NAN; weights.len()];
    let mut order: Vec<&Span> = spans.iter().collect();
    order.sort_by_key(|s| (s.last - s.first, s.first));
    for span in order {
        let days = span.first..=span.last;
        // The weighted sum of the days already set, and the weight of the rest.
        let (mut fixed, mut open) = (0.0, 0.0);
        for (v, w) in f[days.clone()].iter().zip(&weights[days.clone()]) {
            if v.is_nan() {
                open += w;
            } else {
                fixed += v * w;
            }
        }
        let total = span.total(weights);
        // Remaining days that all weigh nothing cannot move the mean: they
        // take the price, and the check of the means says if it is not met.
        let value = if open > 0.0 {
            (span.price * total - fixed) / open
        } else {
            span.price
        };
        for v in &mut f[days] {
            if v.is_nan() {
                *v = value;
            }
        }
    }
    for day in 1..f.len() {
        if f[day].is_nan() {
            f[day] = f[day - 1];
        }
    }
    f
}

#[cfg(test)]
#[path = "flat_tests.rs"]
mod tests;
