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
//! every page, so an unusual server costs requests, never values. A read
//! may start at a hinted page instead of page 1 ([`PageHint`]).

use std::future::Future;

use super::paging::{link_paging, next_page, within_limit, MAX_PAGES, PAGE_SIZE};
use domain::timestamp::{truncate_to_millis, Micros};
use places::ClientError;

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

/// Where a tenor's newest values were found: the last page of a day listed
/// oldest first, `size` values a page. The tenors of a curve are published
/// together (the interface: data updates every 1 to 15 minutes, depending
/// on the curve), so one tenor's last page is where its siblings' newest
/// values most likely are too: a backfill that starts there needs one
/// request where it would need two. A wrong guess costs requests, never
/// values: the page must be oldest first and hold values, its `next` links
/// are followed, and anything else sends the read back to page 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageHint {
    pub page: usize,
    pub size: usize,
}

/// The values of a paged resource from `after` on (compared truncated to
/// milliseconds, as the feed prints times), starting at `hint`'s page if
/// given, and where its newest values were found, if the pages' order
/// tells. `fetch(page, page_size)` gets one page of `endpoint`; without a
/// hint the first is asked for as page 1 of [`PAGE_SIZE`].
pub async fn values_since<Fut>(
    endpoint: &str,
    after: Micros,
    hint: Option<PageHint>,
    fetch: impl Fn(usize, usize) -> Fut,
) -> Result<(Since, Option<PageHint>), ClientError>
where
    Fut: Future<Output = Result<TimedPage, ClientError>>,
{
    let after = truncate_to_millis(after);
    if let Some(hint) = hint.filter(|hint| (1..=MAX_PAGES).contains(&hint.page)) {
        if let Some(found) = from_hint(after, hint, &fetch).await? {
            return Ok(found);
        }
    }
    from_the_first(endpoint, after, &fetch).await
}

/// Every page's order read from page 1.
async fn from_the_first<Fut>(
    endpoint: &str,
    after: Micros,
    fetch: &impl Fn(usize, usize) -> Fut,
) -> Result<(Since, Option<PageHint>), ClientError>
where
    Fut: Future<Output = Result<TimedPage, ClientError>>,
{
    let mut since = Since::default();
    let first = fetch(1, PAGE_SIZE).await?;
    since.add(after, &first.values);
    let last = first.last.as_deref().and_then(link_paging);
    if let Some((page, _)) = last {
        within_limit(endpoint, page)?;
    }
    let mut hint = None;
    let walk = Walk { endpoint, after };
    match (order_of(&first.values), last) {
        (Order::NewestFirst, _) => walk.run(first, true, fetch, &mut since).await?,
        (Order::OldestFirst, Some((last, size))) if last > 1 => {
            let size = size.unwrap_or(PAGE_SIZE);
            let first_end = first.values.last().map(|(at, _)| *at);
            let read = Backwards {
                pages: (2, last),
                size,
                floor: first_end,
                later_first: None,
            };
            match read.run(after, fetch, &mut since).await? {
                None => hint = Some(PageHint { page: last, size }),
                Some(broken) => {
                    for page in 2..broken {
                        since.add(after, &fetch(page, size).await?.values);
                    }
                }
            }
        }
        (_, Some((last, size))) => {
            let size = size.unwrap_or(PAGE_SIZE);
            for page in 2..=last {
                since.add(after, &fetch(page, size).await?.values);
            }
        }
        (_, None) => walk.run(first, false, fetch, &mut since).await?,
    }
    Ok((since, hint))
}

fn oldest_first(values: &[(Micros, f64)]) -> bool {
    values.windows(2).all(|pair| pair[0].0 <= pair[1].0)
}

/// The read that starts at a hinted page; None if the page is not what the
/// hint promised (empty, another order, an error the service gives for a
/// page past the end), and the read starts again from page 1.
async fn from_hint<Fut>(
    after: Micros,
    hint: PageHint,
    fetch: &impl Fn(usize, usize) -> Fut,
) -> Result<Option<(Since, Option<PageHint>)>, ClientError>
where
    Fut: Future<Output = Result<TimedPage, ClientError>>,
{
    let page = match fetch(hint.page, hint.size).await {
        Ok(page) => page,
        Err(ClientError::NotFound { .. } | ClientError::InvalidRequest(_)) => return Ok(None),
        Err(error) => return Err(error),
    };
    let Some(&(hinted_first, _)) = page.values.first() else {
        return Ok(None);
    };
    if !oldest_first(&page.values) {
        return Ok(None);
    }
    let mut since = Since::default();
    since.add(after, &page.values);
    // Published since the hint was taken: later pages.
    let (mut newest, mut end, mut next) = (hint.page, page.values.last().map(|v| v.0), page.next);
    while let Some((number, size)) = next.as_deref().and_then(link_paging) {
        if number <= newest || number > MAX_PAGES {
            return Ok(None);
        }
        let later = fetch(number, size.unwrap_or(hint.size)).await?;
        let follows = later.values.first().zip(end).is_none_or(|(v, e)| v.0 >= e);
        if !(oldest_first(&later.values) && follows) {
            return Ok(None);
        }
        since.add(after, &later.values);
        newest = number;
        end = later.values.last().map(|v| v.0).or(end);
        next = later.next.filter(|_| later.records > 0);
    }
    if truncate_to_millis(hinted_first) > after && hint.page > 1 {
        let read = Backwards {
            pages: (1, hint.page - 1),
            size: hint.size,
            floor: None,
            later_first: Some(hinted_first),
        };
        if read.run(after, fetch, &mut since).await?.is_some() {
            return Ok(None);
        }
    }
    let learned = PageHint {
        page: newest,
        size: hint.size,
    };
    Ok(Some((since, Some(learned))))
}

/// Pages of a day listed oldest first, read from the newest back until one
/// reaches back to `after`.
struct Backwards {
    /// The first and last page to read (the last first).
    pages: (usize, usize),
    size: usize,
    /// Where the page before the first ends, if read: no page may begin earlier.
    floor: Option<Micros>,
    /// Where the page after the last begins, if read.
    later_first: Option<Micros>,
}

impl Backwards {
    /// None once done in order; otherwise the page found out of order (it
    /// and the pages after it have been read, the pages before it not).
    async fn run<Fut>(
        self,
        after: Micros,
        fetch: &impl Fn(usize, usize) -> Fut,
        since: &mut Since,
    ) -> Result<Option<usize>, ClientError>
    where
        Fut: Future<Output = Result<TimedPage, ClientError>>,
    {
        let mut later_first = self.later_first;
        for page in (self.pages.0..=self.pages.1).rev() {
            let values = fetch(page, self.size).await?.values;
            since.add(after, &values);
            let ordered = oldest_first(&values)
                && values.first().zip(self.floor).is_none_or(|(v, f)| v.0 >= f)
                && values.last().zip(later_first).is_none_or(|(v, l)| v.0 <= l);
            if !ordered {
                return Ok(Some(page));
            }
            match values.first() {
                Some(&(first, _)) if truncate_to_millis(first) <= after => return Ok(None),
                Some(&(first, _)) => later_first = Some(first),
                None => {}
            }
        }
        Ok(None)
    }
}

/// A walk of `next` links of `endpoint` for the values from `after` on.
struct Walk<'a> {
    endpoint: &'a str,
    after: Micros,
}

impl Walk<'_> {
    /// The `next` links from `first`. With `newest_first`, the walk ends at
    /// the first page that reaches back to `after`, as long as every page
    /// read is newest first and begins no later than the page before it ends.
    async fn run<Fut>(
        &self,
        first: TimedPage,
        newest_first: bool,
        fetch: &impl Fn(usize, usize) -> Fut,
        since: &mut Since,
    ) -> Result<(), ClientError>
    where
        Fut: Future<Output = Result<TimedPage, ClientError>>,
    {
        let after = self.after;
        let mut ordered = newest_first;
        let mut earlier_end = first.values.last().map(|(at, _)| *at);
        let mut next = first.next;
        let mut current = 1;
        while !(ordered && since.reaches_back) {
            let Some((page, size)) = next_page(self.endpoint, current, next.as_deref())? else {
                break;
            };
            current = page;
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
}

#[cfg(test)]
#[path = "values_since_tests.rs"]
mod tests;
