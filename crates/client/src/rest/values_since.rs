//! The values of one paged intraday resource from a given time on, reading
//! only the pages that hold them when the pages' order allows it: what a
//! live feed's backfill needs after a short outage is the newest few values
//! of a day, not the whole day.
//!
//! The interface does not say in which order intraday pages list their
//! values, so the order is read from the values themselves:
//! - oldest first, with a `last` link: the newest values are on the last
//!   pages, so those are read from the last one backwards, stopping at the
//!   first page that reaches back to `after`;
//! - newest first: the `next` links are walked from the first page, stopping
//!   at the first page that reaches back to `after`;
//! - any other order, or oldest first with no `last` link: every page.
//!
//! A page that breaks the order the read relies on sends it back to reading
//! every page, so an unusual server costs requests, never values.

use std::future::Future;

use super::paging::{link_paging, MAX_PAGES, PAGE_SIZE};
use crate::error::ClientError;
use domain::timestamp::{truncate_to_millis, Micros};

/// One page as the read needs it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimedPage {
    /// `(generatedOn, price)` of its records that have a time, in page order.
    pub values: Vec<(Micros, f64)>,
    /// How many records it held: none ends a walk of `next` links.
    pub records: usize,
    pub next: Option<String>,
    pub last: Option<String>,
}

/// What [`values_since`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Since {
    /// The values at or after `after` (to the millisecond), in no stated order.
    pub values: Vec<(Micros, f64)>,
    /// A value at or before `after` was seen: the resource reaches back to
    /// the gap's start, so what comes before it holds nothing of the gap.
    pub reaches_back: bool,
    /// The earliest time seen on the pages read.
    pub earliest: Option<Micros>,
}

impl Since {
    fn add(&mut self, after: Micros, values: &[(Micros, f64)]) {
        for &(at, price) in values {
            let millis = truncate_to_millis(at);
            self.reaches_back |= millis <= after;
            self.earliest = Some(self.earliest.map_or(at, |e| e.min(at)));
            if millis >= after {
                self.values.push((at, price));
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    OldestFirst,
    NewestFirst,
    Unknown,
}

/// The order of one page's values: one way throughout, first and last
/// apart (a page of one value, or of equal times, shows none).
fn order_of(values: &[(Micros, f64)]) -> Order {
    let (Some(first), Some(last)) = (values.first(), values.last()) else {
        return Order::Unknown;
    };
    let pairs = || values.windows(2).map(|pair| (pair[0].0, pair[1].0));
    if first.0 < last.0 && pairs().all(|(a, b)| a <= b) {
        Order::OldestFirst
    } else if first.0 > last.0 && pairs().all(|(a, b)| a >= b) {
        Order::NewestFirst
    } else {
        Order::Unknown
    }
}

/// The values of a paged resource from `after` on (compared truncated to
/// milliseconds, as the feed prints times). `fetch(page, page_size)` gets one
/// page; the first is asked for as page 1 of [`PAGE_SIZE`].
pub async fn values_since<Fut>(
    after: Micros,
    fetch: impl Fn(usize, usize) -> Fut,
) -> Result<Since, ClientError>
where
    Fut: Future<Output = Result<TimedPage, ClientError>>,
{
    let after = truncate_to_millis(after);
    let mut since = Since::default();
    let first = fetch(1, PAGE_SIZE).await?;
    since.add(after, &first.values);
    let last = first
        .last
        .as_deref()
        .and_then(link_paging)
        .filter(|(page, _)| *page <= MAX_PAGES);
    match (order_of(&first.values), last) {
        (Order::NewestFirst, _) => walk_next(after, first, true, &fetch, &mut since).await?,
        (Order::OldestFirst, Some((last, size))) if last > 1 => {
            let size = size.unwrap_or(PAGE_SIZE);
            let first_end = first.values.last().map_or(Micros::MIN, |(at, _)| *at);
            from_the_end(after, (first_end, last, size), &fetch, &mut since).await?;
        }
        (_, Some((last, size))) => {
            let size = size.unwrap_or(PAGE_SIZE);
            for page in 2..=last {
                since.add(after, &fetch(page, size).await?.values);
            }
        }
        (_, None) => walk_next(after, first, false, &fetch, &mut since).await?,
    }
    Ok(since)
}

/// Oldest first: pages `last` down to 2, of `size` values, until one
/// reaches back to `after` (page 1, which ends at `first_end`, is in hand).
/// Each page must be oldest first, begin no earlier than page 1 ends and
/// end no later than the page after it begins; if one does not, the pages
/// not read yet are read all the same.
async fn from_the_end<Fut>(
    after: Micros,
    (first_end, last, size): (Micros, usize, usize),
    fetch: &impl Fn(usize, usize) -> Fut,
    since: &mut Since,
) -> Result<(), ClientError>
where
    Fut: Future<Output = Result<TimedPage, ClientError>>,
{
    // The first time of the page read before (the one after this page).
    let mut later_first: Option<Micros> = None;
    for page in (2..=last).rev() {
        let values = fetch(page, size).await?.values;
        since.add(after, &values);
        let ordered = values.windows(2).all(|pair| pair[0].0 <= pair[1].0)
            && values.first().is_none_or(|(start, _)| *start >= first_end)
            && values
                .last()
                .zip(later_first)
                .is_none_or(|(&(end, _), next)| end <= next);
        if !ordered {
            for earlier in 2..page {
                since.add(after, &fetch(earlier, size).await?.values);
            }
            return Ok(());
        }
        match values.first() {
            Some(&(first, _)) if truncate_to_millis(first) <= after => return Ok(()),
            Some(&(first, _)) => later_first = Some(first),
            None => {}
        }
    }
    Ok(())
}

/// The `next` links from `first`. With `newest_first`, the walk ends at the
/// first page that reaches back to `after`, as long as every page read is
/// newest first and begins no later than the page before it ends.
async fn walk_next<Fut>(
    after: Micros,
    first: TimedPage,
    newest_first: bool,
    fetch: &impl Fn(usize, usize) -> Fut,
    since: &mut Since,
) -> Result<(), ClientError>
where
    Fut: Future<Output = Result<TimedPage, ClientError>>,
{
    let mut ordered = newest_first;
    let mut earlier_end = first.values.last().map(|(at, _)| *at);
    let mut next = first.next;
    let mut pages = 1;
    while !(ordered && since.reaches_back) {
        let Some((page, size)) = next.as_deref().and_then(link_paging) else {
            break;
        };
        pages += 1;
        if pages > MAX_PAGES {
            break;
        }
        let fetched = fetch(page, size.unwrap_or(PAGE_SIZE)).await?;
        since.add(after, &fetched.values);
        ordered &= fetched.values.windows(2).all(|pair| pair[0].0 >= pair[1].0)
            && fetched
                .values
                .first()
                .zip(earlier_end)
                .is_none_or(|(&(start, _), end)| start <= end);
        if let Some(&(end, _)) = fetched.values.last() {
            earlier_end = Some(end);
        }
        next = if fetched.records == 0 {
            None
        } else {
            fetched.next
        };
    }
    Ok(())
}

#[cfg(test)]
#[path = "values_since_tests.rs"]
mod tests;
