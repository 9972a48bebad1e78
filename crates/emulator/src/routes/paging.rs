//! The page envelope: `items` plus absolute `self`, `next`, `prev` and `last`
//! links carrying `page` and `pageSize`; `next` and `prev` are null at the ends.

use axum::http::HeaderMap;
use serde::Serialize;

use super::error::ApiError;
use super::query::{request_host, Params};

pub(super) struct Paging {
    pub page: usize,
    pub page_size: usize,
}

impl Paging {
    pub(super) fn from(
        params: &Params,
        default_size: usize,
        max_size: usize,
    ) -> Result<Paging, ApiError> {
        Ok(Paging {
            page: params.positive("page", 1, 1_000_000)?,
            page_size: params.positive("pageSize", default_size, max_size)?,
        })
    }

    /// The index of the first item of the page.
    pub(super) fn offset(&self) -> usize {
        (self.page - 1) * self.page_size
    }
}

#[derive(Serialize)]
pub(super) struct Envelope<T: Serialize> {
    pub items: Vec<T>,
    #[serde(rename = "self")]
    pub self_link: String,
    pub next: Option<String>,
    pub prev: Option<String>,
    pub last: String,
}

/// Builds the envelope of one page of `total` items.
pub(super) fn envelope<T: Serialize>(
    items: Vec<T>,
    total: usize,
    paging: &Paging,
    headers: &HeaderMap,
    path: &str,
    params: &Params,
) -> Envelope<T> {
    let host = request_host(headers);
    let kept: Vec<&(String, String)> = params
        .0
        .iter()
        .filter(|(k, _)| k != "page" && k != "pageSize")
        .collect();
    let link = |page: usize| {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (k, v) in &kept {
            query.append_pair(k, v);
        }
        query.append_pair("page", &page.to_string());
        query.append_pair("pageSize", &paging.page_size.to_string());
        format!("http://{host}{path}?{}", query.finish())
    };
    let last = total.div_ceil(paging.page_size).max(1);
    Envelope {
        items,
        self_link: link(paging.page),
        next: (paging.page < last).then(|| link(paging.page + 1)),
        prev: (paging.page > 1).then(|| link((paging.page - 1).min(last))),
        last: link(last),
    }
}

#[cfg(test)]
#[path = "paging_tests.rs"]
mod tests;
