//! `GET /v2/catalogue`: every curve quotation, filtered by `filter[<key>]`
//! (vertical, quotation, region and any custom key such as grade), paged.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{OriginalUri, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;

use super::auth::Caller;
use super::error::ApiError;
use super::paging::{envelope, Paging};
use super::query::{json_response, raw_path, Params};
use crate::state::AppState;
use crate::world::contracts::contracts;
use crate::world::curves::Curve;
use domain::vocabulary::{find_vertical, VERTICALS};

const DEFAULT_PAGE_SIZE: usize = 50;
const MAX_PAGE_SIZE: usize = 500;

#[derive(Serialize)]
pub(super) struct CurveOut<'a> {
    id: &'a str,
    name: &'a str,
    quotation: &'a str,
    units: &'a str,
    filters: &'a BTreeMap<String, String>,
    properties: &'a BTreeMap<String, String>,
    contracts: Vec<String>,
}

pub(super) async fn list(
    State(state): State<Arc<AppState>>,
    _caller: Caller,
    headers: HeaderMap,
    uri: OriginalUri,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::from(query);
    let paging = Paging::from(&params, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let filters = filters(&params)?;
    let world = state.world();
    let day = world.calendar.contract_refresh_day(state.clock.now());
    let matching: Vec<&Curve> = world
        .curves
        .iter()
        .filter(|c| {
            filters
                .iter()
                .all(|(k, v)| c.filters.get(k).is_some_and(|f| f.eq_ignore_ascii_case(v)))
        })
        .collect();
    let items = matching
        .iter()
        .skip(paging.offset())
        .take(paging.page_size)
        .map(|c| CurveOut {
            id: &c.id,
            name: &c.name,
            quotation: c.quotation,
            units: c.units,
            filters: &c.filters,
            properties: &c.properties,
            contracts: contracts(c, day)
                .iter()
                .map(|t| t.name().to_owned())
                .collect(),
        })
        .collect();
    let page = envelope(
        items,
        matching.len(),
        &paging,
        &headers,
        raw_path(&uri),
        &params,
    );
    Ok(json_response(&page))
}

/// The `filter[<key>]` parameters. Vertical, quotation and region must be
/// values of the interface's tables (any case); other keys are custom filters.
fn filters(params: &Params) -> Result<Vec<(String, String)>, ApiError> {
    let mut filters = Vec::new();
    for (name, value) in &params.0 {
        let Some(key) = name
            .strip_prefix("filter[")
            .and_then(|k| k.strip_suffix(']'))
        else {
            continue;
        };
        let known = match key {
            "vertical" => find_vertical(value).is_some(),
            "quotation" => VERTICALS
                .iter()
                .any(|v| v.quotations.iter().any(|q| q.eq_ignore_ascii_case(value))),
            "region" => VERTICALS
                .iter()
                .any(|v| v.regions.iter().any(|r| r.eq_ignore_ascii_case(value))),
            "" => {
                return Err(ApiError::bad_request(
                    "filter[] needs a key, e.g. filter[vertical]",
                ))
            }
            _ => true,
        };
        if !known {
            return Err(ApiError::bad_request(format!(
                "filter[{key}]: unknown value {value:?}"
            )));
        }
        // The vertical filter takes the interface's spelling (`Fuel Oil`).
        let value = match key {
            "vertical" => find_vertical(value).map_or(value.clone(), |v| v.name.to_owned()),
            _ => value.clone(),
        };
        filters.push((key.to_owned(), value));
    }
    Ok(filters)
}

#[cfg(test)]
#[path = "catalogue_tests.rs"]
mod tests;
