//! serde models of every resource of the interface.
//!
//! The interface does not say which fields may be absent or null, so every field
//! is optional here: a missing or null field becomes `None`, unknown fields are
//! ignored. Which fields a use requires (a price needs `price` and `tenor`) is
//! decided where the record is used, so the error can name the field.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::lenient::{opt_list, opt_string_map, opt_text};
use super::redact::redact_url;

/// A curve quotation of the catalogue.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CurveQuotation {
    pub id: Option<String>,
    pub name: Option<String>,
    pub quotation: Option<String>,
    pub units: Option<String>,
    #[serde(default, deserialize_with = "opt_string_map")]
    pub filters: Option<BTreeMap<String, String>>,
    #[serde(default, deserialize_with = "opt_string_map")]
    pub properties: Option<BTreeMap<String, String>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub contracts: Option<Vec<String>>,
}

/// A component of a price (arbitrage route, blend, premium, cash differential).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Dependency {
    pub id: Option<String>,
    pub name: Option<String>,
    pub value: Option<f64>,
    pub units: Option<String>,
    pub tenor_name: Option<String>,
}

/// A `{name, value}` metadata entry. Values are strings on the wire; a number
/// or boolean is kept as its text.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct MetadataEntry {
    #[serde(default, deserialize_with = "opt_text")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "opt_text")]
    pub value: Option<String>,
}

/// A price record: an end-of-day snapshot, an assessment or an intraday value.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PriceRecord {
    pub generated_on: Option<String>,
    pub price: Option<f64>,
    pub units: Option<String>,
    pub tenor: Option<String>,
    #[serde(default, deserialize_with = "opt_list")]
    pub dependencies: Option<Vec<Dependency>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub metadata: Option<Vec<MetadataEntry>>,
}

/// One day of `/historical/settlements`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct HistoricalSettlement {
    pub date: Option<String>,
    pub value: Option<PriceRecord>,
}

/// The three snapshots of a tenor; `tenor` is set in the all-tenors form.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AssessmentSet {
    pub tenor: Option<String>,
    pub singapore_snapshot: Option<PriceRecord>,
    pub london_snapshot: Option<PriceRecord>,
    pub new_york_snapshot: Option<PriceRecord>,
}

/// `{items: [...]}`, the all-tenors form of the ongoing endpoints.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(bound = "T: Deserialize<'de>")]
pub struct Items<T> {
    #[serde(default, deserialize_with = "opt_list")]
    pub items: Option<Vec<T>>,
}

/// A page of a paged endpoint. Links are absolute URLs, null at the ends.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(bound = "T: Deserialize<'de>")]
pub struct Page<T> {
    #[serde(default, deserialize_with = "opt_list")]
    pub items: Option<Vec<T>>,
    #[serde(rename = "self")]
    pub self_link: Option<String>,
    pub next: Option<String>,
    pub prev: Option<String>,
    pub last: Option<String>,
}

/// The answer to a bulk job submission.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct BulkSubmission {
    pub job_id: Option<String>,
    pub date_range: Option<BulkDateRange>,
}

/// The effective (possibly narrowed) month range of a bulk job.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct BulkDateRange {
    pub effective_start: Option<String>,
    pub effective_end: Option<String>,
}

/// The status of a bulk job; `presigned_urls` is present once it SUCCEEDED.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct BulkStatus {
    pub status: Option<String>,
    #[serde(default, deserialize_with = "opt_list")]
    pub presigned_urls: Option<Vec<PresignedUrl>>,
}

/// One downloadable file of a bulk job.
#[derive(Clone, Default, Deserialize, PartialEq)]
pub struct PresignedUrl {
    pub url: Option<String>,
    pub path: Option<String>,
    pub size: Option<u64>,
}

/// The URL's query string is a credential: Debug output never shows it.
impl fmt::Debug for PresignedUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PresignedUrl")
            .field("url", &self.url.as_deref().map(redact_url))
            .field("path", &self.path)
            .field("size", &self.size)
            .finish()
    }
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
