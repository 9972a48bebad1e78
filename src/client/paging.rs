//! Every page of a paged endpoint. The first page's `last` link says how many
//! follow, so they are fetched concurrently; without a usable `last` the
//! `next` links are walked one by one. Only the `page` and `pageSize` of a
//! link are used: the requests go to our own base URL, so a link naming
//! another host never receives the token.

use futures_util::stream::{self, StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;

use super::error::ClientError;
use super::http::Http;
use super::progress::Progress;
use crate::domain::decode::decode_json;
use crate::domain::records::Page;

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

/// The items of every page, in page order.
pub async fn all_pages<T: DeserializeOwned + Send>(
    http: &Http,
    endpoint: &str,
    path: &str,
    query: &[(&str, String)],
    concurrency: usize,
    progress: &Progress,
) -> Result<Vec<T>, ClientError> {
    let fetch = |page: usize, size: usize| async move {
        let mut query = query.to_vec();
        query.push(("page", page.to_string()));
        query.push(("pageSize", size.to_string()));
        let body = http.get(endpoint, path, &query).await?;
        let parsed: Page<T> = decode_json(&format!("{endpoint} (page {page})"), &body)?;
        progress.finish(1);
        Ok::<Page<T>, ClientError>(parsed)
    };
    progress.plan(1);
    let first = fetch(1, PAGE_SIZE).await?;
    let mut items = first.items.unwrap_or_default();
    let last = first.last.as_deref().and_then(link_paging);
    match last {
        Some((last_page, size)) if last_page <= MAX_PAGES => {
            let size = size.unwrap_or(PAGE_SIZE);
            if last_page > 1 {
                progress.plan(last_page as u64 - 1);
            }
            let rest: Vec<Page<T>> = stream::iter(2..=last_page)
                .map(|page| fetch(page, size))
                .buffered(concurrency.max(1))
                .try_collect()
                .await?;
            for page in rest {
                items.extend(page.items.unwrap_or_default());
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
                let parsed = fetch(page, size.unwrap_or(PAGE_SIZE)).await?;
                let empty = parsed.items.as_ref().is_none_or(Vec::is_empty);
                items.extend(parsed.items.unwrap_or_default());
                next = if empty { None } else { parsed.next };
            }
        }
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_page_and_size_from_links() {
        let link = "https://svc/v2/ongoing/intraday/x/Jan%2025?page=7&pageSize=100";
        assert_eq!(link_paging(link), Some((7, Some(100))));
        assert_eq!(
            link_paging("https://svc/v2/catalogue?pageSize=50&page=2"),
            Some((2, Some(50)))
        );
        assert_eq!(
            link_paging("https://svc/v2/catalogue?page=3"),
            Some((3, None))
        );
        assert_eq!(link_paging("https://svc/v2/catalogue"), None);
        assert_eq!(link_paging("https://svc/v2/catalogue?page=x"), None);
    }
}
