//! The price endpoints: ongoing last settlement, last assessments and
//! intraday for the current UTC day; historical settlements and intraday.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{OriginalUri, Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use chrono::NaiveDate;
use serde::Serialize;

use super::auth::Caller;
use super::error::ApiError;
use super::paging::{envelope, Paging};
use super::query::{json_response, raw_path, Params};
use crate::calendar::{day_of, days};
use crate::state::AppState;
use crate::world::contracts::{contracts, has_kind};
use crate::world::curves::Curve;
use crate::world::prices::{tick, PriceRecordOut};
use crate::world::{World, FIRST_DAY};
use domain::rows::Snapshot;
use domain::tenor::Tenor;

const INTRADAY_PAGE_SIZE: usize = 100;
const MAX_INTRADAY_PAGE_SIZE: usize = 1_000;
const MAX_INTRADAY_DAYS: i64 = 30;

type CurvePath = Result<Path<String>, PathRejection>;
type TenorPath = Result<Path<(String, String)>, PathRejection>;

fn bad_path(rejection: PathRejection) -> ApiError {
    ApiError::bad_request(format!("bad path: {rejection}"))
}

/// The curve of the path, checked against the caller's licence.
fn curve<'a>(world: &'a World, caller: &Caller, id: &str) -> Result<&'a Curve, ApiError> {
    let curve = world
        .curve(id)
        .ok_or_else(|| ApiError::not_found(format!("unknown curve id {id:?}")))?;
    if !caller.licence.allows(curve.quotation) {
        return Err(ApiError::forbidden(format!(
            "quotation {:?} is not in your licence",
            curve.quotation
        )));
    }
    Ok(curve)
}

/// The tenor of the path (already URL-decoded): a shape the curve offers.
fn tenor(curve: &Curve, name: &str) -> Result<Tenor, ApiError> {
    let tenor = Tenor::parse(name).map_err(|e| ApiError::bad_request(e.to_string()))?;
    if !has_kind(curve, tenor.kind()) {
        return Err(ApiError::not_found(format!(
            "curve {} has no tenor {name:?}",
            curve.id
        )));
    }
    Ok(tenor)
}

#[derive(Serialize)]
struct SettlementOut<'a> {
    date: String,
    value: PriceRecordOut<'a>,
}

pub(super) async fn historical_settlements(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: TenorPath,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let Path((id, name)) = path.map_err(bad_path)?;
    let (start, end) = Params::from(query).date_range()?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let tenor = tenor(curve, &name)?;
    let now = state.clock.now();
    let entries: Vec<SettlementOut> = days(start.max(FIRST_DAY), end.min(day_of(now)))
        .rev()
        .filter_map(|day| {
            let stamp = world.snapshot(curve, &tenor, day, Snapshot::London, now)?;
            Some(SettlementOut {
                date: day.to_string(),
                value: world.record(curve, &tenor, stamp),
            })
        })
        .collect();
    Ok(json_response(&entries))
}

pub(super) async fn historical_intraday(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: TenorPath,
    headers: HeaderMap,
    uri: OriginalUri,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let Path((id, name)) = path.map_err(bad_path)?;
    let params = Params::from(query);
    let (start, end) = params.date_range()?;
    let span = (end - start).num_days() + 1;
    if span > MAX_INTRADAY_DAYS {
        return Err(ApiError::bad_request(format!(
            "the window is at most {MAX_INTRADAY_DAYS} days; {start} to {end} is {span} days"
        )));
    }
    let paging = Paging::from(&params, INTRADAY_PAGE_SIZE, MAX_INTRADAY_PAGE_SIZE)?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let tenor = tenor(curve, &name)?;
    let page = Intraday {
        state: &state,
        world: &world,
        curve,
        tenor: &tenor,
    }
    .page(start, end, &paging);
    let (items, total) = page;
    Ok(json_response(&envelope(
        items,
        total,
        &paging,
        &headers,
        raw_path(&uri),
        &params,
    )))
}

pub(super) async fn ongoing_intraday(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: TenorPath,
    headers: HeaderMap,
    uri: OriginalUri,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let Path((id, name)) = path.map_err(bad_path)?;
    let params = Params::from(query);
    let paging = Paging::from(&params, INTRADAY_PAGE_SIZE, MAX_INTRADAY_PAGE_SIZE)?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let tenor = tenor(curve, &name)?;
    let today = day_of(state.clock.now());
    let (items, total) = Intraday {
        state: &state,
        world: &world,
        curve,
        tenor: &tenor,
    }
    .page(today, today, &paging);
    Ok(json_response(&envelope(
        items,
        total,
        &paging,
        &headers,
        raw_path(&uri),
        &params,
    )))
}

/// Intraday values of one curve and tenor over whole UTC days, oldest first,
/// generated only for the page asked for.
struct Intraday<'a> {
    state: &'a AppState,
    world: &'a World,
    curve: &'a Curve,
    tenor: &'a Tenor,
}

impl<'a> Intraday<'a> {
    fn page(
        &self,
        first: NaiveDate,
        last: NaiveDate,
        paging: &Paging,
    ) -> (Vec<PriceRecordOut<'a>>, usize) {
        let now = self.state.clock.now();
        let world = self.world;
        let counts: Vec<(NaiveDate, usize)> = days(first, last)
            .map(|day| {
                (
                    day,
                    world.ticks_published(self.curve, self.tenor, day, now) as usize,
                )
            })
            .collect();
        let total = counts.iter().map(|(_, n)| n).sum();
        let mut skip = paging.offset();
        let mut items = Vec::with_capacity(paging.page_size.min(total));
        for (day, count) in counts {
            if skip >= count {
                skip -= count;
                continue;
            }
            for slot in skip..count {
                if items.len() == paging.page_size {
                    return (items, total);
                }
                let stamp = tick(self.curve, day, slot as u32);
                items.push(world.record(self.curve, self.tenor, stamp));
            }
            skip = 0;
        }
        (items, total)
    }
}

#[derive(Serialize)]
struct Items<T: Serialize> {
    items: Vec<T>,
}

fn settlement_today<'a>(
    state: &AppState,
    world: &'a World,
    curve: &'a Curve,
    tenor: &'a Tenor,
) -> Option<PriceRecordOut<'a>> {
    let now = state.clock.now();
    let stamp = world.snapshot(curve, tenor, day_of(now), Snapshot::London, now)?;
    Some(world.record(curve, tenor, stamp))
}

pub(super) async fn last_settlement(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: TenorPath,
) -> Result<Response, ApiError> {
    let Path((id, name)) = path.map_err(bad_path)?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let tenor = tenor(curve, &name)?;
    let record = settlement_today(&state, &world, curve, &tenor).ok_or_else(|| {
        ApiError::not_found(format!(
            "no settlement of {name:?} published yet for {}",
            day_of(state.clock.now())
        ))
    })?;
    Ok(json_response(&record))
}

pub(super) async fn last_settlement_all(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: CurvePath,
) -> Result<Response, ApiError> {
    let Path(id) = path.map_err(bad_path)?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let today = day_of(state.clock.now());
    let tenors = contracts(curve, today);
    let items = tenors
        .iter()
        .filter_map(|tenor| settlement_today(&state, &world, curve, tenor))
        .collect();
    Ok(json_response(&Items { items }))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AssessmentSetOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    tenor: Option<&'a str>,
    singapore_snapshot: Option<PriceRecordOut<'a>>,
    london_snapshot: Option<PriceRecordOut<'a>>,
    new_york_snapshot: Option<PriceRecordOut<'a>>,
}

/// Today's assessments of a tenor that are published; None if none is yet.
fn assessments_today<'a>(
    state: &AppState,
    world: &'a World,
    curve: &'a Curve,
    tenor: &'a Tenor,
    with_tenor: bool,
) -> Option<AssessmentSetOut<'a>> {
    let now = state.clock.now();
    let snapshot = |which| {
        let stamp = world.snapshot(curve, tenor, day_of(now), which, now)?;
        Some(world.record(curve, tenor, stamp))
    };
    let set = AssessmentSetOut {
        tenor: with_tenor.then(|| tenor.name()),
        singapore_snapshot: snapshot(Snapshot::Singapore),
        london_snapshot: snapshot(Snapshot::London),
        new_york_snapshot: snapshot(Snapshot::NewYork),
    };
    let any = set.singapore_snapshot.is_some()
        || set.london_snapshot.is_some()
        || set.new_york_snapshot.is_some();
    any.then_some(set)
}

pub(super) async fn last_assessments(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: TenorPath,
) -> Result<Response, ApiError> {
    let Path((id, name)) = path.map_err(bad_path)?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let tenor = tenor(curve, &name)?;
    let set = assessments_today(&state, &world, curve, &tenor, false).ok_or_else(|| {
        ApiError::not_found(format!(
            "no assessment of {name:?} published yet for {}",
            day_of(state.clock.now())
        ))
    })?;
    Ok(json_response(&set))
}

pub(super) async fn last_assessments_all(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    path: CurvePath,
) -> Result<Response, ApiError> {
    let Path(id) = path.map_err(bad_path)?;
    let world = state.world();
    let curve = curve(&world, &caller, &id)?;
    let today = day_of(state.clock.now());
    let tenors = contracts(curve, today);
    let items = tenors
        .iter()
        .filter_map(|tenor| assessments_today(&state, &world, curve, tenor, true))
        .collect();
    Ok(json_response(&Items { items }))
}

// One file of tests for each idea the endpoints here serve.
#[cfg(test)]
#[path = "intraday_tests.rs"]
mod intraday_tests;
#[cfg(test)]
#[path = "licence_tests.rs"]
mod licence_tests;
#[cfg(test)]
#[path = "ongoing_tests.rs"]
mod ongoing_tests;
#[cfg(test)]
#[path = "settlements_tests.rs"]
mod settlements_tests;
