//! Back-adjusted continuous series: a position's prices made one series
//! without the jumps its rolls would put in it.
//!
//! Each roll's gap is measured on the last time the old contract is held:
//! the new contract's price minus the old one's (`difference`), or the new
//! over the old (`ratio`). Every earlier value is shifted by the sum of the
//! gaps of the rolls after it, or scaled by their product, so the latest
//! contract's prices are the table's and the series does not jump at a roll.
//!
//! Where either contract has no price on that last time, the gap is
//! measured at the latest earlier time at which the old contract is still
//! held and both have one (a settlement missing on the roll day is common).
//! A roll with no such time is refused, naming it: a gap is never guessed,
//! and a series is never silently shifted by nothing.
//!
//! A ratio has a meaning only between prices above zero: `ratio` refuses
//! any price at or below zero that the series holds (each is scaled) or
//! that a gap is measured from (each is divided or scaled by), naming the
//! curve, tenor and time. A curve that goes negative is adjusted by
//! `difference`, which takes any price.

use super::input::TimeKey;
use super::CurveError;
use domain::tenor::Tenor;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjust {
    /// The contracts' prices as they are.
    None,
    /// Earlier values shifted by the sum of later gaps (new minus old).
    Difference,
    /// Earlier values scaled by the product of later ratios (new over old).
    Ratio,
}

impl Adjust {
    pub fn parse(name: &str) -> Result<Adjust, CurveError> {
        match name {
            "none" => Ok(Adjust::None),
            "difference" => Ok(Adjust::Difference),
            "ratio" => Ok(Adjust::Ratio),
            _ => Err(CurveError::new(format!(
                "unknown adjust {name:?}: a rolling series is adjusted by 'none', \
                 'difference' or 'ratio'"
            ))),
        }
    }
}

/// One roll of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Roll {
    /// The rank of the first time the new contract is held.
    pub at: usize,
    /// The rank of the time the gap was measured at.
    pub measured: usize,
    /// New minus old, or new over old.
    pub gap: f64,
}

/// One curve's prices of each contract of a chain by time rank: finite
/// prices only, in rank order, one per rank (the table's last row of a
/// contract and time, as the rolling series takes it).
pub(crate) struct ChainPrices(Vec<Vec<(u32, f64)>>);

impl ChainPrices {
    /// From (chain index, time rank, price) in the table's order.
    pub(crate) fn new(
        contracts: usize,
        rows: impl Iterator<Item = (usize, u32, f64)>,
    ) -> ChainPrices {
        let mut per: Vec<Vec<(u32, f64)>> = vec![Vec::new(); contracts];
        for (index, rank, price) in rows {
            per[index].push((rank, price));
        }
        for prices in &mut per {
            // Stable, so of two rows at one time the later stays last.
            prices.sort_by_key(|p| p.0);
            let mut kept: Vec<(u32, f64)> = Vec::with_capacity(prices.len());
            for &(rank, price) in prices.iter() {
                match kept.last_mut() {
                    Some(last) if last.0 == rank => *last = (rank, price),
                    _ => kept.push((rank, price)),
                }
            }
            kept.retain(|p| p.1.is_finite());
            *prices = kept;
        }
        ChainPrices(per)
    }

    /// The price of chain contract `index` at time `rank`, if it has a
    /// finite one.
    fn at(&self, index: usize, rank: usize) -> Option<f64> {
        let prices = &self.0[index];
        let i = prices.binary_search_by_key(&rank, |p| p.0 as usize).ok()?;
        Some(prices[i].1)
    }

    /// The latest rank in `first..=last` at which both contracts have a
    /// price, with the two prices.
    fn common(
        &self,
        old: usize,
        new: usize,
        first: usize,
        last: usize,
    ) -> Option<(usize, f64, f64)> {
        let (a, b) = (&self.0[old], &self.0[new]);
        let mut i = a.partition_point(|p| p.0 as usize <= last);
        let mut j = b.partition_point(|p| p.0 as usize <= last);
        while i > 0 && j > 0 {
            let (ra, rb) = (a[i - 1].0 as usize, b[j - 1].0 as usize);
            if ra.max(rb) < first {
                return None;
            }
            match ra.cmp(&rb) {
                std::cmp::Ordering::Equal => return Some((ra, a[i - 1].1, b[j - 1].1)),
                std::cmp::Ordering::Greater => i -= 1,
                std::cmp::Ordering::Less => j -= 1,
            }
        }
        None
    }
}

/// What names a roll in a message.
pub(crate) struct Context<'a> {
    pub curve_id: &'a str,
    /// The position's column: `M1`.
    pub column: &'a str,
    /// The curve's contracts.
    pub contracts: &'a [Tenor],
    /// The chain: indices into `contracts`.
    pub chain: &'a [u32],
    pub key: TimeKey,
    /// The curve's times, by rank.
    pub times: &'a [i64],
}

/// The rolls of a position that holds, at each time rank, the chain
/// contract `held[rank]` (None past the chain's end), with their gaps.
pub(crate) fn rolls(
    held: &[Option<usize>],
    prices: &ChainPrices,
    adjust: Adjust,
    context: &Context<'_>,
) -> Result<Vec<Roll>, CurveError> {
    let mut out = Vec::new();
    if adjust == Adjust::None {
        return Ok(out);
    }
    if adjust == Adjust::Ratio {
        held_above_zero(held, prices, context)?;
    }
    let mut first_of_old = 0;
    for at in 1..held.len() {
        let (Some(old), Some(new)) = (held[at - 1], held[at]) else {
            continue;
        };
        if old == new {
            continue;
        }
        let last = at - 1;
        let name = |index: usize| context.contracts[context.chain[index] as usize].name();
        let when = |rank: usize| context.key.describe(context.times[rank]);
        let Some((measured, old_price, new_price)) = prices.common(old, new, first_of_old, last)
        else {
            return Err(CurveError::new(format!(
                "curve {}: the roll of {} from {} to {} cannot be measured: no time from {} \
                 to {} (while {} is held) has a price of both",
                context.curve_id,
                context.column,
                name(old),
                name(new),
                when(first_of_old),
                when(last),
                name(old),
            )));
        };
        let gap = match adjust {
            Adjust::Ratio => {
                for (index, price) in [(new, new_price), (old, old_price)] {
                    if price <= 0.0 {
                        return Err(not_above_zero(
                            context,
                            name(index),
                            price,
                            measured,
                            &format!(
                                "divide by or scale by in the roll of {} from {} to {}, \
                                 measured then",
                                context.column,
                                name(old),
                                name(new)
                            ),
                        ));
                    }
                }
                let ratio = new_price / old_price;
                if !ratio.is_finite() {
                    return Err(CurveError::new(format!(
                        "curve {}: the roll of {} from {} ({old_price}) to {} ({new_price}) on {} \
                         has a ratio too large for a number",
                        context.curve_id,
                        context.column,
                        name(old),
                        name(new),
                        when(measured),
                    )));
                }
                ratio
            }
            _ => new_price - old_price,
        };
        out.push(Roll { at, measured, gap });
        first_of_old = at;
    }
    Ok(out)
}

/// Refuses a price at or below zero of a contract `held` (by time rank):
/// a ratio-adjusted series scales every one.
fn held_above_zero(
    held: &[Option<usize>],
    prices: &ChainPrices,
    context: &Context<'_>,
) -> Result<(), CurveError> {
    for (rank, index) in held.iter().enumerate() {
        let Some(index) = *index else { continue };
        match prices.at(index, rank) {
            Some(price) if price <= 0.0 => {
                let tenor = context.contracts[context.chain[index] as usize].name();
                let what = format!("scale ({} holds it then)", context.column);
                return Err(not_above_zero(context, tenor, price, rank, &what));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A price a ratio cannot be made of, named: curve, tenor, time, and what
/// the ratio would have done with it.
fn not_above_zero(
    context: &Context<'_>,
    tenor: &str,
    price: f64,
    rank: usize,
    what: &str,
) -> CurveError {
    CurveError::RatioNotAboveZero {
        curve_id: context.curve_id.to_string(),
        tenor: tenor.to_owned(),
        price: price.to_string(),
        at: context.key.describe(context.times[rank]),
        what: what.to_owned(),
    }
}

/// Shifts or scales each value of `cells` (one per time rank) by the gaps
/// of the rolls after it.
pub(crate) fn apply(cells: &mut [Option<f64>], rolls: &[Roll], adjust: Adjust) {
    let mut later = rolls.iter().rev().peekable();
    let mut sum = 0.0;
    let mut product = 1.0;
    for rank in (0..cells.len()).rev() {
        while let Some(roll) = later.next_if(|roll| roll.at > rank) {
            sum += roll.gap;
            product *= roll.gap;
        }
        if let Some(value) = &mut cells[rank] {
            match adjust {
                Adjust::None => {}
                Adjust::Difference => *value += sum,
                Adjust::Ratio => *value *= product,
            }
        }
    }
}

#[cfg(test)]
#[path = "adjust_tests.rs"]
mod tests;
