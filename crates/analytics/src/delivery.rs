//! A curve's contracts at one time as runs of delivery days, and which of
//! them a forward curve is built from.
//!
//! A contract whose days are all covered by shorter contracts of the same
//! curve and time (a quarter and its three months, a month and its six
//! windows) is left out: the finer contracts say more about those days, and
//! a quarter that disagrees with its months would otherwise make the
//! conditions impossible to meet.

/// A contract with delivery days, at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Delivery {
    /// Index into the curve's contracts.
    pub contract: u32,
    /// First and last day of delivery (days since 1970-01-01), inclusive.
    pub first: i32,
    pub last: i32,
    pub price: f64,
}

impl Delivery {
    fn days(&self) -> i32 {
        self.last - self.first + 1
    }
}

/// The contracts of `cells` ((contract, price) by contract) that have
/// delivery days, `periods` giving each contract's; in calendar order when
/// the curve's contracts are.
pub(crate) fn deliveries(periods: &[Option<(i32, i32)>], cells: &[(u32, f64)]) -> Vec<Delivery> {
    cells
        .iter()
        .filter_map(|&(contract, price)| {
            let (first, last) = periods[contract as usize]?;
            Some(Delivery {
                contract,
                first,
                last,
                price,
            })
        })
        .collect()
}

/// Whether each of `deliveries` (sorted by first day) is kept: not when
/// every one of its days is covered by shorter contracts.
pub(crate) fn kept(deliveries: &[Delivery]) -> Vec<bool> {
    deliveries
        .iter()
        .map(|wide| {
            // Sweep the shorter contracts overlapping it, in order of first day.
            let mut covered_to = wide.first - 1;
            for narrow in deliveries {
                if narrow.first > covered_to + 1 || covered_to >= wide.last {
                    break;
                }
                if narrow.days() < wide.days() && narrow.last >= wide.first {
                    covered_to = covered_to.max(narrow.last);
                }
            }
            covered_to < wide.last
        })
        .collect()
}

/// A kept contract as the curve builders see it: a run of the curve's days
/// (offsets from its first day) and the price its weighted mean must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Span {
    pub first: usize,
    pub last: usize,
    pub price: f64,
}

impl Span {
    /// The sum of its days' weights.
    pub(crate) fn total(&self, weights: &[f64]) -> f64 {
        weights[self.first..=self.last].iter().sum()
    }

    /// The weighted mean of `f` over its days.
    pub(crate) fn mean(&self, f: &[f64], weights: &[f64]) -> f64 {
        let days = self.first..=self.last;
        let sum: f64 = f[days.clone()]
            .iter()
            .zip(&weights[days])
            .map(|(v, w)| v * w)
            .sum();
        sum / self.total(weights)
    }
}

#[cfg(test)]
#[path = "delivery_tests.rs"]
mod tests;
