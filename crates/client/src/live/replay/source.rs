//! Where a replay's values come from, a UTC day at a time.

use std::collections::BTreeSet;
use std::sync::Arc;

use chrono::NaiveDate;
use futures_util::future::BoxFuture;
use futures_util::{stream, StreamExt, TryStreamExt};

use crate::backfill::rows::backfilled_rows;
use crate::live::tick::{Tick, TickSource};
use crate::record::checkpoint::replaced_files;
use crate::record::compact::sort_rows;
use crate::record::file::{batch_rows, decode, Recorded};
use crate::record::layout::{data_file, day_folder, DataFile};
use crate::record::read::each_value_once;
use crate::rest::windows::MAX_INTRADAY_DAYS;
use crate::rest::{HistoryQuery, Progress, RestClient};
use crate::storage::{Place, PlaceError};
use crate::ClientError;
use domain::live::Subscription;
use domain::tenor::{Tenor, TenorKind};

/// Files read at once.
const READS_IN_FLIGHT: usize = 8;

/// A source of a replay's values.
pub trait ReplaySource: Send + Sync {
    /// The values of `subscriptions` published on the days `first..=last`,
    /// each once, in no stated order.
    fn days<'a>(
        &'a self,
        first: NaiveDate,
        last: NaiveDate,
        subscriptions: &'a [Subscription],
    ) -> BoxFuture<'a, Result<Vec<Tick>, ClientError>>;

    /// How many days the replay reads at once: what one read of the source
    /// costs least for (a lake's day; the service's 30-day window).
    fn days_at_once(&self) -> u64;
}

/// Whether `subscription` takes `curve_id`'s `tenor`: `*` takes the
/// calendar tenors, as the live feed's does.
pub fn takes(subscription: &Subscription, curve_id: &str, tenor: &str) -> bool {
    subscription.curve_id == curve_id
        && if subscription.is_all_tenors() {
            Tenor::parse_lenient(tenor).kind() != TenorKind::Continuous
        } else {
            subscription.tenor == tenor
        }
}

/// A lake: the files of a recorder and a backfill (`record::layout`).
pub struct LakeSource {
    place: Place,
}

impl LakeSource {
    /// The lake at `place`, which must exist.
    pub async fn open(place: Place) -> Result<LakeSource, ClientError> {
        place.check_lake("source").await?;
        Ok(LakeSource { place })
    }

    async fn read_day(
        &self,
        day: NaiveDate,
        subscriptions: &[Subscription],
    ) -> Result<Vec<Tick>, ClientError> {
        let files: Vec<DataFile> = self
            .place
            .list_under(&day_folder(day))
            .await?
            .iter()
            .filter_map(|name| data_file(name))
            .collect();
        // Nothing is removed here: a replay only reads.
        let replaced = replaced_files(&self.place, &files).await?;
        let curves: BTreeSet<&str> = subscriptions.iter().map(|s| s.curve_id.as_str()).collect();
        let place = &self.place;
        let chunks: Vec<Vec<Recorded>> =
            stream::iter(files.into_iter().filter(|f| !replaced.contains(&f.name)))
                .map(|file| async move {
                    let bytes = place.get(&file.name).await?.ok_or_else(|| {
                        PlaceError(format!("{} vanished while replaying", file.name))
                    })?;
                    let name = file.name.clone();
                    let unreadable =
                        move |e: String| PlaceError(format!("cannot read {name}: {e}"));
                    tokio::task::spawn_blocking(move || {
                        let (batches, _) = decode(bytes).map_err(&unreadable)?;
                        let mut rows = Vec::new();
                        for batch in &batches {
                            rows.extend(batch_rows(batch).map_err(&unreadable)?);
                        }
                        Ok::<_, PlaceError>(rows)
                    })
                    .await
                    .map_err(|e| PlaceError(e.to_string()))?
                })
                .buffer_unordered(READS_IN_FLIGHT)
                .try_collect()
                .await?;
        let mut rows: Vec<Recorded> = chunks
            .into_iter()
            .flatten()
            .filter(|r| curves.contains(&*r.tick.curve_id))
            .filter(|r| {
                subscriptions
                    .iter()
                    .any(|s| takes(s, &r.tick.curve_id, &r.tick.tenor))
            })
            .collect();
        sort_rows(&mut rows);
        Ok(each_value_once(rows).into_iter().map(|r| r.tick).collect())
    }
}

impl ReplaySource for LakeSource {
    fn days<'a>(
        &'a self,
        first: NaiveDate,
        last: NaiveDate,
        subscriptions: &'a [Subscription],
    ) -> BoxFuture<'a, Result<Vec<Tick>, ClientError>> {
        Box::pin(async move {
            let mut ticks = Vec::new();
            for day in first.iter_days().take_while(|d| *d <= last) {
                ticks.extend(self.read_day(day, subscriptions).await?);
            }
            Ok(ticks)
        })
    }

    /// A day: the lake's partition, and what memory holds at once.
    fn days_at_once(&self) -> u64 {
        1
    }
}

/// The service: the historical intraday endpoint, through the client (and
/// its history cache, when it has one).
pub struct ServiceSource {
    rest: Arc<RestClient>,
}

impl ServiceSource {
    pub fn new(rest: Arc<RestClient>) -> ServiceSource {
        ServiceSource { rest }
    }

    async fn read_days(
        &self,
        (first, last): (NaiveDate, NaiveDate),
        subscriptions: &[Subscription],
    ) -> Result<Vec<Tick>, ClientError> {
        let mut ticks = Vec::new();
        let curves: BTreeSet<&str> = subscriptions.iter().map(|s| s.curve_id.as_str()).collect();
        for curve_id in curves {
            let named: Vec<String> = subscriptions
                .iter()
                .filter(|s| s.curve_id == curve_id && !s.is_all_tenors())
                .map(|s| s.tenor.clone())
                .collect();
            let every = subscriptions
                .iter()
                .any(|s| s.curve_id == curve_id && s.is_all_tenors());
            let tenors = if every {
                let query = HistoryQuery::new(curve_id, first, last, None)?;
                let mut all: Vec<String> = self
                    .rest
                    .tenors_to_pull(&query)
                    .await?
                    .iter()
                    .filter(|t| t.kind() != TenorKind::Continuous)
                    .map(|t| t.name().to_owned())
                    .collect();
                all.extend(named);
                all.sort();
                all.dedup();
                all
            } else {
                named
            };
            if tenors.is_empty() {
                continue;
            }
            let query = HistoryQuery::new(curve_id, first, last, Some(tenors))?;
            let table = self
                .rest
                .intraday_history(&query, &Progress::default(), None)
                .await?;
            let rows = backfilled_rows(&table, 0).map_err(ClientError::Destination)?;
            ticks.extend(rows.into_iter().map(|row| Tick {
                source: TickSource::Update,
                ..row.tick
            }));
        }
        Ok(ticks)
    }
}

impl ReplaySource for ServiceSource {
    fn days<'a>(
        &'a self,
        first: NaiveDate,
        last: NaiveDate,
        subscriptions: &'a [Subscription],
    ) -> BoxFuture<'a, Result<Vec<Tick>, ClientError>> {
        Box::pin(self.read_days((first, last), subscriptions))
    }

    /// The historical endpoint's window: one request per tenor and page.
    fn days_at_once(&self) -> u64 {
        MAX_INTRADAY_DAYS as u64
    }
}
