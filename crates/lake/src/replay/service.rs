//! The service as a replay's source: the historical intraday endpoint,
//! window by window, through the client (and its history cache, when it
//! has one).

use std::collections::BTreeSet;
use std::sync::Arc;

use chrono::NaiveDate;
use futures_util::future::BoxFuture;

use super::source::ReplaySource;
use super::values::{NameTable, Value, Values};
use crate::backfill::rows::backfilled_rows;
use domain::live::Subscription;
use domain::tenor::{Tenor, TenorKind};
use history::rest::windows::MAX_INTRADAY_DAYS;
use history::rest::{Contracts, HistoryQuery, Progress};
use history::RestClient;
use live::TickSource;
use live::SUBSCRIBE_ANYWAY;
use places::storage::PlaceError;
use places::{Argument, ClientError, Invalid, Rule};

pub struct ServiceSource {
    rest: Arc<RestClient>,
}

impl ServiceSource {
    pub fn new(rest: Arc<RestClient>) -> ServiceSource {
        ServiceSource { rest }
    }

    /// The tenors of `curve_id` to ask for: those named, and with `*` every
    /// calendar tenor of the span, expired ones too (the live feed's `*`
    /// took the contracts listed then, not those listed now).
    async fn tenors(
        &self,
        curve_id: &str,
        (first, last): (NaiveDate, NaiveDate),
        subscriptions: &[Subscription],
    ) -> Result<Vec<String>, ClientError> {
        let mine = || subscriptions.iter().filter(|s| s.curve_id == curve_id);
        let mut tenors: Vec<String> = mine()
            .filter(|s| !s.is_all_tenors())
            .map(|s| s.tenor.clone())
            .collect();
        if mine().any(Subscription::is_all_tenors) {
            let query =
                HistoryQuery::new(curve_id, first, last, None)?.with_contracts(Contracts::All)?;
            let listed = self.rest.tenors_to_pull(&query).await?;
            tenors.extend(
                listed
                    .iter()
                    .filter(|t| t.kind() != TenorKind::Continuous)
                    .map(|t| t.name().to_owned()),
            );
        }
        tenors.sort();
        tenors.dedup();
        Ok(tenors)
    }

    async fn read(
        &self,
        span: (NaiveDate, NaiveDate),
        subscriptions: &[Subscription],
    ) -> Result<Values, ClientError> {
        let mut names = NameTable::new(subscriptions);
        let mut staged = Vec::new();
        let curves: BTreeSet<&str> = subscriptions.iter().map(|s| s.curve_id.as_str()).collect();
        for curve_id in curves {
            let tenors = match self.tenors(curve_id, span, subscriptions).await {
                // Subscribed with strict=False to a curve not in the
                // catalogue: nothing, as the live feed would send.
                Err(ClientError::NotFound { .. }) => continue,
                tenors => tenors?,
            };
            if tenors.is_empty() {
                continue;
            }
            // Replayed ticks carry times and prices: the rest is not read.
            let query = HistoryQuery::new(curve_id, span.0, span.1, Some(tenors))?.values_only();
            let table = match self
                .rest
                .intraday_history(&query, &Progress::default(), None)
                .await
            {
                Err(ClientError::NotFound { .. }) => continue,
                table => table?,
            };
            let rows = backfilled_rows(&table, 0).map_err(PlaceError::encoding)?;
            for row in rows {
                let tick = row.tick;
                if let Some(name) = names.index(&tick.curve_id, &tick.tenor) {
                    staged.push(Value {
                        name,
                        generated_on: tick.generated_on,
                        recorded_at: 0,
                        price: tick.price,
                        source: TickSource::Update,
                    });
                }
            }
        }
        Ok(names.settle(staged))
    }
}

impl ReplaySource for ServiceSource {
    fn days<'a>(
        &'a self,
        first: NaiveDate,
        last: NaiveDate,
        subscriptions: &'a [Subscription],
    ) -> BoxFuture<'a, Result<Values, ClientError>> {
        Box::pin(self.read((first, last), subscriptions))
    }

    /// The historical endpoint's window: one request per tenor and page.
    fn days_at_once(&self) -> u64 {
        MAX_INTRADAY_DAYS as u64
    }

    /// The curve must be in the catalogue, and a tenor named one of the
    /// kinds it lists whose delivery has not ended before the days asked
    /// (it expires before then, and is published no more).
    fn check<'a>(
        &'a self,
        subscription: &'a Subscription,
        first: NaiveDate,
        last: NaiveDate,
    ) -> BoxFuture<'a, Result<(), ClientError>> {
        Box::pin(async move {
            let curve_id = subscription.curve_id.as_str();
            let named = (!subscription.is_all_tenors()).then(|| vec![subscription.tenor.clone()]);
            let query = HistoryQuery::new(curve_id, first, last, named)?;
            let refused = |argument: Argument, why: String| {
                ClientError::InvalidRequest(
                    Invalid::new(
                        argument,
                        Rule::Unlisted,
                        format!("{why}: the replay would deliver nothing for it"),
                    )
                    .advice(SUBSCRIBE_ANYWAY),
                )
            };
            match self.rest.tenors_to_pull(&query).await {
                Ok(_) => {}
                Err(ClientError::NotFound { .. }) => {
                    return Err(refused(
                        Argument::Curve,
                        format!("curve_id {curve_id:?} is not in the catalogue"),
                    ))
                }
                Err(ClientError::InvalidRequest(why)) => {
                    return Err(refused(why.argument.clone(), why.to_string()))
                }
                Err(other) => return Err(other),
            }
            let tenor = Tenor::parse_lenient(&subscription.tenor);
            if let Some(delivery_end) = tenor.end() {
                if delivery_end < first {
                    return Err(refused(
                        Argument::Tenor,
                        format!(
                            "tenor {:?} was delivered by {delivery_end}, before {first}",
                            subscription.tenor
                        ),
                    ));
                }
            }
            Ok(())
        })
    }
}
