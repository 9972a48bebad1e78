//! From response bodies to price rows, with errors that name the endpoint and
//! the field that was not what the interface says.

use std::sync::Arc;

use chrono::NaiveDate;
use serde::de::DeserializeOwned;

use super::records::{AssessmentSet, HistoricalSettlement, Items, Page, PriceRecord};
use super::rows::{PriceRow, Snapshot};
use super::tenor::Tenor;
use super::timestamp::{parse_date, parse_timestamp};

/// A response that does not follow the interface.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unexpected response from {endpoint}: field `{field}`: {reason}")]
pub struct DecodeError {
    /// The endpoint as the interface names it, e.g. `GET /ongoing/intraday/<curve_id>/<tenor>`.
    pub endpoint: String,
    /// The path of the field in the body, e.g. `items[3].price`; `.` is the body itself.
    pub field: String,
    pub reason: String,
}

/// The shapes of the price endpoints, each named as in the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceEndpoint {
    LastSettlement,
    LastSettlementAll,
    LastAssessments,
    LastAssessmentsAll,
    OngoingIntraday,
    HistoricalSettlements,
    HistoricalIntraday,
}

impl PriceEndpoint {
    pub fn describe(self) -> &'static str {
        match self {
            Self::LastSettlement => "GET /ongoing/last-settlement/<curve_id>/<tenor>",
            Self::LastSettlementAll => "GET /ongoing/last-settlement/<curve_id>",
            Self::LastAssessments => "GET /ongoing/last-assessments/<curve_id>/<tenor>",
            Self::LastAssessmentsAll => "GET /ongoing/last-assessments/<curve_id>",
            Self::OngoingIntraday => "GET /ongoing/intraday/<curve_id>/<tenor>",
            Self::HistoricalSettlements => "GET /historical/settlements/<curve_id>/<tenor>",
            Self::HistoricalIntraday => "GET /historical/intraday/<curve_id>/<tenor>",
        }
    }
}

/// What the request said, used where a record leaves something out.
#[derive(Clone, Copy, Debug)]
pub struct RequestContext<'a> {
    pub curve_id: &'a str,
    /// The tenor of the request path, if it had one.
    pub tenor: Option<&'a str>,
}

/// Parses a JSON body into `T`, naming the path of the first field that does not fit.
pub fn decode_json<T: DeserializeOwned>(endpoint: &str, body: &[u8]) -> Result<T, DecodeError> {
    // Tracking the path costs a third more time: only a body that fails pays it.
    serde_json::from_slice(body).or_else(|_| decode_json_with_path(endpoint, body))
}

fn decode_json_with_path<T: DeserializeOwned>(
    endpoint: &str,
    body: &[u8],
) -> Result<T, DecodeError> {
    let mut json = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut json).map_err(|e| DecodeError {
        endpoint: endpoint.to_owned(),
        field: field_name(e.path()),
        reason: e.inner().to_string(),
    })?;
    json.end().map_err(|e| DecodeError {
        endpoint: endpoint.to_owned(),
        field: ".".to_owned(),
        reason: e.to_string(),
    })?;
    Ok(value)
}

/// The path of a field; a key that is the empty string prints as nothing,
/// so it is named as JSON writes it.
fn field_name(path: &serde_path_to_error::Path) -> String {
    match path.to_string() {
        text if text.is_empty() => r#""""#.to_owned(),
        text => text,
    }
}

/// Decodes the body of a price endpoint into rows. For the paged endpoints the
/// rows of this page only; links are read by [`decode_json`] into a [`Page`].
pub fn decode_price_rows(
    endpoint: PriceEndpoint,
    body: &[u8],
    request: RequestContext<'_>,
) -> Result<Vec<PriceRow>, DecodeError> {
    let name = endpoint.describe();
    let rows = RowMaker {
        curve_id: Arc::from(request.curve_id),
        endpoint: name,
    };
    match endpoint {
        PriceEndpoint::LastSettlement => {
            let record: PriceRecord = decode_json(name, body)?;
            Ok(vec![rows.price(record, request.tenor, "")?])
        }
        PriceEndpoint::LastSettlementAll => {
            let page: Items<PriceRecord> = decode_json(name, body)?;
            rows.prices(page.items, None)
        }
        PriceEndpoint::OngoingIntraday | PriceEndpoint::HistoricalIntraday => {
            let page: Page<PriceRecord> = decode_json(name, body)?;
            rows.prices(page.items, request.tenor)
        }
        PriceEndpoint::LastAssessments => {
            let set: AssessmentSet = decode_json(name, body)?;
            rows.assessments(set, request.tenor, "")
        }
        PriceEndpoint::LastAssessmentsAll => {
            let page: Items<AssessmentSet> = decode_json(name, body)?;
            let mut out = Vec::new();
            for (i, set) in page.items.unwrap_or_default().into_iter().enumerate() {
                out.extend(rows.assessments(set, None, &format!("items[{i}]."))?);
            }
            Ok(out)
        }
        PriceEndpoint::HistoricalSettlements => {
            let days: Option<Vec<Option<HistoricalSettlement>>> = decode_json(name, body)?;
            let days = days.unwrap_or_default().into_iter().enumerate();
            days.filter_map(|(i, day)| Some((i, day?)))
                .map(|(i, day)| rows.settlement(day, request.tenor, &format!("[{i}].")))
                .collect()
        }
    }
}

/// Rows of the `items` of a page already decoded (the paged endpoints).
pub fn page_rows(
    endpoint: PriceEndpoint,
    items: Option<Vec<PriceRecord>>,
    request: RequestContext<'_>,
) -> Result<Vec<PriceRow>, DecodeError> {
    let rows = RowMaker {
        curve_id: Arc::from(request.curve_id),
        endpoint: endpoint.describe(),
    };
    rows.prices(items, request.tenor)
}

/// Turns records into rows for one curve, naming fields as `<prefix><field>`.
struct RowMaker<'a> {
    curve_id: Arc<str>,
    endpoint: &'a str,
}

impl RowMaker<'_> {
    fn error(&self, field: String, reason: impl Into<String>) -> DecodeError {
        DecodeError {
            endpoint: self.endpoint.to_owned(),
            field,
            reason: reason.into(),
        }
    }

    fn prices(
        &self,
        items: Option<Vec<PriceRecord>>,
        tenor: Option<&str>,
    ) -> Result<Vec<PriceRow>, DecodeError> {
        let items = items.unwrap_or_default().into_iter().enumerate();
        items
            .map(|(i, record)| self.price(record, tenor, &format!("items[{i}].")))
            .collect()
    }

    /// A record without `price` is refused; a record without `tenor` takes the
    /// tenor the request (or the enclosing assessment set) named, if any.
    fn price(
        &self,
        record: PriceRecord,
        tenor: Option<&str>,
        prefix: &str,
    ) -> Result<PriceRow, DecodeError> {
        let price = record
            .price
            .ok_or_else(|| self.error(format!("{prefix}price"), "missing or null"))?;
        let tenor = record
            .tenor
            .as_deref()
            .or(tenor)
            .ok_or_else(|| self.error(format!("{prefix}tenor"), "missing or null"))?;
        let generated_on = match record.generated_on.as_deref() {
            Some(text) => Some(
                parse_timestamp(text)
                    .map_err(|e| self.error(format!("{prefix}generatedOn"), e.to_string()))?,
            ),
            None => None,
        };
        Ok(PriceRow {
            curve_id: Arc::clone(&self.curve_id),
            tenor: Tenor::parse_lenient(tenor),
            date: None,
            snapshot: None,
            generated_on,
            price,
            units: record.units,
            dependencies: record.dependencies,
            metadata: record.metadata.map(|entries| {
                entries
                    .into_iter()
                    .filter_map(|e| Some((e.name?, e.value)))
                    .collect()
            }),
        })
    }

    /// The snapshots of a set that are present; one not yet published is absent.
    fn assessments(
        &self,
        set: AssessmentSet,
        tenor: Option<&str>,
        prefix: &str,
    ) -> Result<Vec<PriceRow>, DecodeError> {
        let tenor = set.tenor.as_deref().or(tenor);
        let snapshots = [
            (
                Snapshot::Singapore,
                "singaporeSnapshot",
                set.singapore_snapshot,
            ),
            (Snapshot::London, "londonSnapshot", set.london_snapshot),
            (Snapshot::NewYork, "newYorkSnapshot", set.new_york_snapshot),
        ];
        let mut out = Vec::new();
        for (snapshot, field, record) in snapshots {
            if let Some(record) = record {
                let mut row = self.price(record, tenor, &format!("{prefix}{field}."))?;
                row.snapshot = Some(snapshot);
                out.push(row);
            }
        }
        Ok(out)
    }

    fn settlement(
        &self,
        day: HistoricalSettlement,
        tenor: Option<&str>,
        prefix: &str,
    ) -> Result<PriceRow, DecodeError> {
        let record = day
            .value
            .ok_or_else(|| self.error(format!("{prefix}value"), "missing or null"))?;
        let mut row = self.price(record, tenor, &format!("{prefix}value."))?;
        row.date = match day.date.as_deref() {
            Some(text) => Some(self.date(text, format!("{prefix}date"))?),
            None => None,
        };
        Ok(row)
    }

    fn date(&self, text: &str, field: String) -> Result<NaiveDate, DecodeError> {
        parse_date(text)
            .map_err(|_| self.error(field, format!("{text:?} is not a YYYY-MM-DD date")))
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
