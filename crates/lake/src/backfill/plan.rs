//! A backfill's work, planned before anything is fetched: the tenors of
//! each subscription (from the catalogue), and for each curve and 30-day
//! window, the tenors with a day the lake does not hold complete.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::held::{held, Held};
use domain::live::Subscription;
use domain::tenor::{Tenor, TenorKind};
use history::rest::validate;
use history::rest::windows::{split, MAX_INTRADAY_DAYS};
use history::rest::{Budget, Contracts, HistoryQuery};
use history::RestClient;
use live::checked_subscription;
use places::storage::Place;
use places::ClientError;

/// One curve's tenors over `start..=end` (at most 30 days): the unit of
/// work, run on this machine or a worker of a cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackfillTask {
    pub curve_id: String,
    pub tenors: Vec<String>,
    pub start: NaiveDate,
    pub end: NaiveDate,
}

/// What a backfill is asked for, checked before anything is sent.
#[derive(Clone, Debug)]
pub struct BackfillRequest {
    subscriptions: Vec<Subscription>,
    start: NaiveDate,
    end: NaiveDate,
    contracts: Contracts,
    budget: Budget,
}

impl BackfillRequest {
    /// `subscriptions` as the recorder takes them (`(curve_id, tenor)`,
    /// tenor `*` for the curve's calendar contracts); `contracts`
    /// (`listed`, `expired` or `all`) says which contracts `*` takes.
    pub fn new(
        subscriptions: &[(String, String)],
        start: NaiveDate,
        end: NaiveDate,
        contracts: &str,
    ) -> Result<BackfillRequest, ClientError> {
        if subscriptions.is_empty() {
            return Err(ClientError::invalid(
                places::Argument::Subscription,
                places::Rule::Empty,
                "subscriptions must name at least one (curve_id, tenor) pair; \
                 tenor '*' takes every calendar contract of the curve",
            ));
        }
        let mut checked: Vec<Subscription> = Vec::new();
        for (curve_id, tenor) in subscriptions {
            let subscription = checked_subscription(curve_id, tenor)?;
            if !checked.contains(&subscription) {
                checked.push(subscription);
            }
        }
        validate::date_range(start, end)?;
        validate::intraday_span(start, end)?;
        let contracts = Contracts::parse(contracts)?;
        if contracts != Contracts::Listed && !checked.iter().any(Subscription::is_all_tenors) {
            return Err(ClientError::InvalidRequest(places::Invalid::led_by_values(
                places::Argument::Tenors,
                places::Rule::Conflict,
                &["expired", "all"],
                " widen (curve, '*') subscriptions, and none is given",
            )));
        }
        Ok(BackfillRequest {
            subscriptions: checked,
            start,
            end,
            contracts,
            budget: Budget::default(),
        })
    }

    /// The request refused, before any task starts, if its plan needs more
    /// requests than `budget` allows.
    pub fn with_budget(mut self, budget: Budget) -> BackfillRequest {
        self.budget = budget;
        self
    }
}

/// The tasks, in order of curve then time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub tasks: Vec<BackfillTask>,
    /// Days of a curve's tenor already complete in the lake, not fetched.
    pub days_skipped: u64,
}

/// Plans `request` into `dest`: refuses a curve the catalogue does not
/// list, a tenor it does not offer, a `*` that finds no contract, and a
/// range that begins after the service's today; ends the range there.
/// A plan over the request's budget is refused before any task starts:
/// it costs the catalogue's request where the catalogue must be fetched
/// (checked before it is), and one request per tenor of each task (a
/// task spans at most one 30-day window; its pages after the first are
/// known only from the first answer).
pub async fn plan(
    rest: &RestClient,
    dest: &Place,
    request: &BackfillRequest,
) -> Result<Plan, ClientError> {
    // Before anything is sent: a link in the range is refused.
    super::held::refuse_links(dest, request.start, request.end).await?;
    let catalogue = rest.tenors_requests().await?;
    request.budget.check(catalogue)?;
    let curves = tenors_of(rest, request).await?;
    // After the catalogue's answer, which dated the service's clock.
    let today = rest.http().service_clock().now().date_naive();
    if request.start > today {
        return Err(ClientError::invalid(
            places::Argument::Start,
            places::Rule::Bounds,
            format!(
                "start {} is after the service's today ({today}): nothing is published yet",
                request.start
            ),
        ));
    }
    let last = request.end.min(today);
    let held = held(dest, request.start, last).await?;
    let mut plan = Plan::default();
    for (curve_id, tenors) in &curves {
        for (first, window_last) in split(request.start, last, MAX_INTRADAY_DAYS) {
            plan_window(&held, curve_id, tenors, (first, window_last), &mut plan);
        }
    }
    let tasks: u64 = plan.tasks.iter().map(|t| t.tenors.len() as u64).sum();
    request.budget.check(catalogue + tasks)?;
    Ok(plan)
}

/// The tasks of one curve's window: its tenors that lack a day, those
/// lacking the same span of days together, so that no complete day is
/// fetched again unless it lies between days a tenor lacks.
fn plan_window(
    held: &Held,
    curve_id: &str,
    tenors: &[Tenor],
    (first, last): (NaiveDate, NaiveDate),
    plan: &mut Plan,
) {
    let days: Vec<NaiveDate> = first.iter_days().take_while(|d| *d <= last).collect();
    let mut by_span: BTreeMap<(NaiveDate, NaiveDate), Vec<String>> = BTreeMap::new();
    for tenor in tenors {
        let missing: Vec<NaiveDate> = days
            .iter()
            .copied()
            .filter(|day| !held.is_complete(curve_id, tenor.name(), *day))
            .collect();
        plan.days_skipped += (days.len() - missing.len()) as u64;
        if let (Some(from), Some(to)) = (missing.first(), missing.last()) {
            by_span
                .entry((*from, *to))
                .or_default()
                .push(tenor.name().to_owned());
        }
    }
    for ((start, end), tenors) in by_span {
        plan.tasks.push(BackfillTask {
            curve_id: curve_id.to_owned(),
            tenors,
            start,
            end,
        });
    }
}

/// Each curve's tenors, in calendar order.
async fn tenors_of(
    rest: &RestClient,
    request: &BackfillRequest,
) -> Result<BTreeMap<String, Vec<Tenor>>, ClientError> {
    tenors_asked(rest, request).await.map_err(|e| match e {
        // As the recorder says it: a curve not listed is a bad argument.
        ClientError::NotFound { message, .. } => ClientError::invalid(
            places::Argument::Curve,
            places::Rule::Unlisted,
            format!("{message}: a backfill takes listed curves"),
        ),
        other => other,
    })
}

async fn tenors_asked(
    rest: &RestClient,
    request: &BackfillRequest,
) -> Result<BTreeMap<String, Vec<Tenor>>, ClientError> {
    let mut curves: BTreeMap<String, Vec<Tenor>> = BTreeMap::new();
    for subscription in &request.subscriptions {
        let curve_id = &subscription.curve_id;
        let (start, end) = (request.start, request.end);
        let tenors = if subscription.is_all_tenors() {
            let query =
                HistoryQuery::new(curve_id, start, end, None)?.with_contracts(request.contracts)?;
            let calendar: Vec<Tenor> = rest
                .tenors_to_pull(&query)
                .await?
                .into_iter()
                // As the live feed's `*`: the continuous tenors are named.
                .filter(|t| t.kind() != TenorKind::Continuous)
                .collect();
            if calendar.is_empty() {
                return Err(ClientError::invalid(
                    places::Argument::Subscription,
                    places::Rule::Unlisted,
                    format!(
                        "curve {curve_id} has no calendar contract for '*' to take from {start} \
                     to {end}; name its tenors"
                    ),
                ));
            }
            calendar
        } else {
            let named = Some(vec![subscription.tenor.clone()]);
            rest.tenors_to_pull(&HistoryQuery::new(curve_id, start, end, named)?)
                .await?
        };
        let entry = curves.entry(curve_id.clone()).or_default();
        entry.extend(tenors);
        entry.sort();
        entry.dedup();
    }
    Ok(curves)
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
