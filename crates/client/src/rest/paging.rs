//! Every page of a paged endpoint. The first page's `last` link says how many
//! follow, so they are fetched concurrently; without a usable `last` the
//! `next` links are walked one by one. Only the `page` and `pageSize` of a
//! link are used: the requests go to our own base URL, so a link naming
//! another host never receives the token.

use futures_util::stream::{self, StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;

use super::http::Http;
use super::progress::Progress;
use crate::error::ClientError;
use domain::decode::decode_json;
use domain::records::Page;

/// The interface observes intraday pages of 100.
pub const PAGE_SIZE: usize = 100;
/// A guard against a server whose `next` never ends.
const MAX_PAGES: usize = 100_000;

/// `page` and `pageSize` of a link.
fn link_paging(link: &str) -> Option<(usize, Option<usize>)> {
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

/// One page, its items already converted.
struct Fetched<U> {
    items: Vec<U>,
    next: Option<String>,
    last: Option<String>,
}

/// The items of every page, in page order, each page passed through
/// `convert` as it arrives so that only the converted form is kept.
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
    T: DeserializeOwned + Send,
    F: Fn(Vec<T>) -> Result<Vec<U>, ClientError>,
{
    let convert = &convert;
    let fetch = |page: usize, size: usize| async move {
        let mut query = query.to_vec();
        query.push(("page", page.to_string()));
        query.push(("pageSize", size.to_string()));
        let body = http.get(endpoint, path, &query).await?;
        let parsed: Page<T> = decode_json(&format!("{endpoint} (page {page})"), &body)?;
        drop(body);
        progress.finish(1);
        Ok::<Fetched<U>, ClientError>(Fetched {
            items: convert(parsed.items.unwrap_or_default())?,
            next: parsed.next,
            last: parsed.last,
        })
    };
    progress.plan(1);
    let first = fetch(1, PAGE_SIZE).await?;
    let mut items = first.items;
    match first.last.as_deref().and_then(link_paging) {
        Some((last_page, size)) if last_page <= MAX_PAGES => {
            let size = size.unwrap_or(PAGE_SIZE);
            if last_page > 1 {
                progress.plan(last_page as u64 - 1);
            }
            // Unordered, so one slow page does not hold back the requests behind it.
            let mut rest: Vec<(usize, Fetched<U>)> = stream::iter(2..=last_page)
                .map(|page| async move { Ok::<_, ClientError>((page, fetch(page, size).await?)) })
                .buffer_unordered(concurrency.max(1))
                .try_collect()
                .await?;
            rest.sort_by_key(|(page, _)| *page);
            for (_, page) in rest {
                items.extend(page.items);
            }
        }
        _ => {
            let mut next = first.next;
            let mut pages = 1;
            while let Some((page, size)) = next.as_deref().and_then(link_paging) {
                pages += 1;
                if pages > MAX_PAGES {
                    break;
                }
                progress.plan(1);
                let fetched = fetch(page, size.unwrap_or(PAGE_SIZE)).await?;
                let empty = fetched.items.is_empty();
                items.extend(fetched.items);
                next = if empty { None } else { fetched.next };
            }
        }
    }
    Ok(items)
}

#[cfg(test)]
#[path = "paging_tests.rs"]
mod tests;
