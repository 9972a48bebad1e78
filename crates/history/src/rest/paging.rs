//! Every page of a paged endpoint, or of several at once (the slices of one
//! table). The first page's `last` link says how many follow, so they are
//! fetched concurrently; without a usable `last` the `next` links are walked
//! one by one. Only the `page` and `pageSize` of a
//! link are used: the requests go to our own base URL, so a link naming
//! another host never receives the token. A `next` link that does not move
//! forward (a loop), or pages past [`MAX_PAGES`], are an error: the walk
//! neither goes on for ever nor returns a result cut short.

use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::{self, StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;

use super::http::Http;
use super::own_task::in_own_task;
use super::progress::Progress;
use domain::decode::decode_json;
use domain::records::Page;
use places::ClientError;

/// The interface observes intraday pages of 100.
pub const PAGE_SIZE: usize = 100;
/// The most pages one resource may have (10 million values at 100 a page):
/// past it, the request is refused rather than its result cut short.
pub(super) const MAX_PAGES: usize = 100_000;

/// `page` and `pageSize` of a link.
pub(super) fn link_paging(link: &str) -> Option<(usize, Option<usize>)> {
    let query = link.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or(query);
    let mut page = None;
    let mut size = None;
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "page" => page = value.parse().ok(),
            "pageSize" => size = value.parse().ok(),
            _ => {}
        }
    }
    Some((page?, size))
}

/// The service broke the paging's rules: said, as a service's fault.
fn bad_paging(endpoint: &str, message: String) -> ClientError {
    ClientError::Service {
        endpoint: endpoint.to_owned(),
        status: None,
        attempts: 1,
        message,
        advice: None,
    }
}

/// Refuses a page number past [`MAX_PAGES`].
pub(super) fn within_limit(endpoint: &str, page: usize) -> Result<usize, ClientError> {
    if page > MAX_PAGES {
        return Err(bad_paging(
            endpoint,
            format!(
                "the service pages this request into {page} pages or more, past the limit \
                 of {MAX_PAGES}; ask for a narrower range"
            ),
        ));
    }
    Ok(page)
}

/// The page and page size the `next` link of page `current` names, if any:
/// it must come after `current` (a link that stays or goes back is a loop)
/// and within [`MAX_PAGES`].
pub(super) fn next_page(
    endpoint: &str,
    current: usize,
    next: Option<&str>,
) -> Result<Option<(usize, Option<usize>)>, ClientError> {
    let Some((page, size)) = next.and_then(link_paging) else {
        return Ok(None);
    };
    if page <= current {
        return Err(bad_paging(
            endpoint,
            format!("the `next` link of page {current} names page {page}: the pages loop"),
        ));
    }
    Ok(Some((within_limit(endpoint, page)?, size)))
}

/// One page as its decoder gives it: its items in the caller's form, and
/// what paging reads of it.
pub struct DecodedPage<U> {
    pub items: Vec<U>,
    /// How many records the page held: none ends a walk of `next` links
    /// (whatever `items` kept of them).
    pub records: usize,
    pub next: Option<String>,
    pub last: Option<String>,
}

/// One paged resource: a path and its query (without `page` and `pageSize`).
pub struct Paged<'q> {
    pub path: String,
    pub query: Vec<(&'q str, String)>,
}

/// The items of every page of one paged resource, in page order, each page
/// passed through `convert` as it arrives so that only the converted form
/// is kept.
pub async fn all_pages<T, U, F>(
    http: &Http,
    endpoint: &str,
    path: &str,
    query: &[(&str, String)],
    concurrency: usize,
    progress: &Progress,
    convert: F,
) -> Result<Vec<U>, ClientError>
where
    T: DeserializeOwned + Send + 'static,
    U: Send + 'static,
    F: Fn(Vec<T>) -> Result<Vec<U>, ClientError> + Send + Sync + 'static,
{
    let one = [Paged {
        path: path.to_owned(),
        query: query.to_vec(),
    }];
    let decode = move |_: usize, what: &str, body: &[u8]| {
        let page: Page<T> = decode_json(what, body)?;
        let items = page.items.unwrap_or_default();
        Ok(DecodedPage {
            records: items.len(),
            items: convert(items)?,
            next: page.next,
            last: page.last,
        })
    };
    let keep = |_: usize, items: Vec<U>| Ok(items);
    let mut all = pages_of_each(http, endpoint, &one, concurrency, progress, decode, keep).await?;
    Ok(all.pop().unwrap_or_default())
}

/// Every page of several paged resources (the slices of one table: a tenor
/// and window each), `concurrency` requests at a time. Each page's body is
/// decoded by `decode` (given the resource's index and a name for errors)
/// as it arrives; each resource's items, in page order, go to `finish` as
/// soon as its last page is in. The results come back in the order of
/// `resources`.
///
/// The first pages of all resources go out together, and their `last` links
/// say how many pages follow; those are then asked for resource by resource.
/// So the requests keep `concurrency` slots busy throughout, and resources
/// complete one after another: only about one resource's pages are held
/// before `finish` turns them into their final form, not every resource's
/// at once. Without a usable `last`, a resource's `next` links are walked
/// one by one.
pub async fn pages_of_each<U, V, F, G>(
    http: &Http,
    endpoint: &str,
    resources: &[Paged<'_>],
    concurrency: usize,
    progress: &Progress,
    decode: F,
    finish: G,
) -> Result<Vec<V>, ClientError>
where
    U: Send + 'static,
    F: Fn(usize, &str, &[u8]) -> Result<DecodedPage<U>, ClientError> + Send + Sync + 'static,
    G: Fn(usize, Vec<U>) -> Result<V, ClientError>,
{
    let decode = Arc::new(decode);
    let finish = &finish;
    let concurrency = concurrency.max(1);
    // A page's request holds one of the `concurrency` slots only until its
    // body is in: its decoding then runs while the slot's next request is
    // on the wire, not before it is sent.
    let get = |resource: usize, page: usize, size: usize| async move {
        let Paged { path, query } = &resources[resource];
        let mut query = query.clone();
        query.push(("page", page.to_string()));
        query.push(("pageSize", size.to_string()));
        let body = http.get(endpoint, path, &query).await?;
        Ok::<_, ClientError>((resource, page, body))
    };
    let decoded = |(resource, page, body): (usize, usize, Bytes)| {
        let decode = Arc::clone(&decode);
        let what = format!("{endpoint} (page {page})");
        async move {
            let decoded = in_own_task(move || decode(resource, &what, &body)).await?;
            progress.finish(1);
            Ok::<_, ClientError>((resource, page, decoded))
        }
    };
    let fetch = |resource: usize, page: usize, size: usize| async move {
        let (_, _, decoded) = decoded(get(resource, page, size).await?).await?;
        Ok::<DecodedPage<U>, ClientError>(decoded)
    };
    progress.plan(resources.len() as u64);
    let mut firsts: Vec<(usize, usize, DecodedPage<U>)> = stream::iter(0..resources.len())
        .map(|resource| get(resource, 1, PAGE_SIZE))
        .buffer_unordered(concurrency)
        .map_ok(decoded)
        .try_buffer_unordered(concurrency)
        .try_collect()
        .await?;
    firsts.sort_by_key(|(resource, _, _)| *resource);

    let mut results: Vec<Option<V>> = resources.iter().map(|_| None).collect();
    let mut gathering: Vec<Option<Gathering<U>>> = resources.iter().map(|_| None).collect();
    let mut requests: Vec<(usize, usize, usize)> = Vec::new();
    let mut walks: Vec<(usize, DecodedPage<U>)> = Vec::new();
    for (resource, _, first) in firsts {
        match first.last.as_deref().and_then(link_paging) {
            Some((last_page, size)) => {
                within_limit(endpoint, last_page)?;
                if last_page <= 1 {
                    results[resource] = Some(finish(resource, first.items)?);
                    continue;
                }
                let size = size.unwrap_or(PAGE_SIZE);
                progress.plan(last_page as u64 - 1);
                requests.extend((2..=last_page).map(|page| (resource, page, size)));
                gathering[resource] = Some(Gathering::new(first.items, last_page - 1));
            }
            _ => walks.push((resource, first)),
        }
    }
    // Unordered, so one slow page does not hold back the requests behind it.
    let mut pages = stream::iter(requests)
        .map(|(resource, page, size)| get(resource, page, size))
        .buffer_unordered(concurrency)
        .map_ok(decoded)
        .try_buffer_unordered(concurrency);
    while let Some((resource, page, fetched)) = pages.try_next().await? {
        let slot = gathering[resource]
            .as_mut()
            .expect("pages of a resource being gathered");
        if slot.add(page, fetched.items) {
            let items = gathering[resource].take().expect("gathered").items();
            results[resource] = Some(finish(resource, items)?);
        }
    }
    drop(pages);
    let walked: Vec<(usize, V)> = stream::iter(walks)
        .map(|(resource, first)| async move {
            let items = walk_next(
                endpoint,
                first,
                |page, size| fetch(resource, page, size),
                progress,
            )
            .await?;
            Ok::<_, ClientError>((resource, finish(resource, items)?))
        })
        .buffer_unordered(concurrency)
        .try_collect()
        .await?;
    for (resource, result) in walked {
        results[resource] = Some(result);
    }
    Ok(results
        .into_iter()
        .map(|result| result.expect("every resource finished"))
        .collect())
}

/// The pages of one resource after its first, as they arrive in any order.
struct Gathering<U> {
    first: Vec<U>,
    /// Page `n` (from 2) at index `n - 2`.
    rest: Vec<Option<Vec<U>>>,
    missing: usize,
}

impl<U> Gathering<U> {
    fn new(first: Vec<U>, following: usize) -> Gathering<U> {
        Gathering {
            first,
            rest: (0..following).map(|_| None).collect(),
            missing: following,
        }
    }

    /// Stores page `page`; true once every page is in.
    fn add(&mut self, page: usize, items: Vec<U>) -> bool {
        if self.rest[page - 2].replace(items).is_none() {
            self.missing -= 1;
        }
        self.missing == 0
    }

    /// Every item, in page order.
    fn items(self) -> Vec<U> {
        let mut items = self.first;
        for page in self.rest {
            items.extend(page.unwrap_or_default());
        }
        items
    }
}

/// The items of a resource whose pages are found by following `next` links
/// one by one, from its first page; a page without records ends it (one
/// whose records the decoder kept none of does not).
async fn walk_next<U, Fut>(
    endpoint: &str,
    first: DecodedPage<U>,
    fetch: impl Fn(usize, usize) -> Fut,
    progress: &Progress,
) -> Result<Vec<U>, ClientError>
where
    Fut: std::future::Future<Output = Result<DecodedPage<U>, ClientError>>,
{
    let mut items = first.items;
    let mut next = first.next;
    let mut current = 1;
    while let Some((page, size)) = next_page(endpoint, current, next.as_deref())? {
        current = page;
        progress.plan(1);
        let fetched = fetch(page, size.unwrap_or(PAGE_SIZE)).await?;
        let empty = fetched.records == 0;
        items.extend(fetched.items);
        next = if empty { None } else { fetched.next };
    }
    Ok(items)
}

#[cfg(test)]
#[path = "paging_tests.rs"]
pub(super) mod tests;
