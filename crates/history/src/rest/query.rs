//! What each REST data method is asked for, checked when it is built: a
//! request that exists is one the service can be sent (docs/protocol.md#tenors,
//! docs/protocol.md#catalogue). Building it needs no client, so bad input is
//! refused before the client is looked at, even by a closed one. Types are the
//! caller's concern: the Python package checks them in `_args.py`.

use chrono::NaiveDate;

use super::budget::Budget;
use super::validate;
use domain::price_page::Detail;
use domain::tenor::Tenor;
use domain::vocabulary::Vertical;
use places::ClientError;

/// One curve, and one of its tenors or all of them: the current-day
/// snapshots (`last_settlement`, `last_assessments`).
#[derive(Clone, Debug)]
pub struct PriceQuery {
    curve_id: String,
    tenor: Option<Tenor>,
}

impl PriceQuery {
    /// `tenor` None asks for every tenor of the curve.
    pub fn new(curve_id: &str, tenor: Option<&str>) -> Result<PriceQuery, ClientError> {
        Ok(PriceQuery {
            curve_id: validate::curve_id(curve_id)?,
            tenor: tenor.map(validate::tenor).transpose()?,
        })
    }

    /// The curve id, without surrounding blanks.
    pub fn curve_id(&self) -> &str {
        &self.curve_id
    }

    pub fn tenor(&self) -> Option<&Tenor> {
        self.tenor.as_ref()
    }
}

/// One tenor of one curve: today's intraday values.
#[derive(Clone, Debug)]
pub struct TenorQuery {
    curve_id: String,
    tenor: Tenor,
    budget: Budget,
}

impl TenorQuery {
    pub fn new(curve_id: &str, tenor: &str) -> Result<TenorQuery, ClientError> {
        Ok(TenorQuery {
            curve_id: validate::curve_id(curve_id)?,
            tenor: validate::tenor(tenor)?,
            budget: Budget::default(),
        })
    }

    /// The query refused, before anything is sent, if it needs more
    /// requests than `budget` allows (`rest::budget`).
    pub fn with_budget(mut self, budget: Budget) -> TenorQuery {
        self.budget = budget;
        self
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The curve id, without surrounding blanks.
    pub fn curve_id(&self) -> &str {
        &self.curve_id
    }

    pub fn tenor(&self) -> &Tenor {
        &self.tenor
    }
}

/// The days `start` to `end` (both included) of a curve's tenors: the
/// historical settlements and intraday values. Whether the curve has the
/// tenors asked for is known only from the catalogue, and checked by the call.
#[derive(Clone, Debug)]
pub struct HistoryQuery {
    curve_id: String,
    start: NaiveDate,
    end: NaiveDate,
    tenors: Option<Vec<Tenor>>,
    contracts: Contracts,
    detail: Detail,
    budget: Budget,
}

/// Which of a curve's contracts a history pulls when no tenors are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contracts {
    /// Those the catalogue lists.
    Listed,
    /// Those of the listed kinds, overlapping the range, that it no longer lists.
    Expired,
    /// Both.
    All,
}

impl Contracts {
    /// `"listed"`, `"expired"` or `"all"`.
    pub fn parse(name: &str) -> Result<Contracts, ClientError> {
        match name {
            "listed" => Ok(Contracts::Listed),
            "expired" => Ok(Contracts::Expired),
            "all" => Ok(Contracts::All),
            _ => Err(ClientError::invalid(
                places::Argument::Tenors,
                places::Rule::Unknown,
                format!("tenors must be None, tenor names, 'expired' or 'all', not {name:?}"),
            )),
        }
    }
}

impl HistoryQuery {
    /// `tenors` None asks for every contract of the curve; a list must name
    /// at least one tenor.
    pub fn new(
        curve_id: &str,
        start: NaiveDate,
        end: NaiveDate,
        tenors: Option<Vec<String>>,
    ) -> Result<HistoryQuery, ClientError> {
        let curve_id = validate::curve_id(curve_id)?;
        validate::date_range(start, end)?;
        let tenors = tenors
            .map(|names| {
                if names.is_empty() {
                    return Err(ClientError::invalid(
                        places::Argument::Tenors,
                        places::Rule::Empty,
                        "tenors must name at least one tenor, or be None for all",
                    ));
                }
                names.iter().map(|n| validate::tenor(n)).collect()
            })
            .transpose()?;
        Ok(HistoryQuery {
            curve_id,
            start,
            end,
            tenors,
            contracts: Contracts::Listed,
            detail: Detail::Full,
            budget: Budget::default(),
        })
    }

    /// The query keeping only each record's time, price and units (its
    /// dependencies and metadata left null, skipped unread), for callers that
    /// keep only values. A history cache still stores, and serves, every field.
    pub fn values_only(mut self) -> HistoryQuery {
        self.detail = Detail::Values;
        self
    }

    pub fn detail(&self) -> Detail {
        self.detail
    }

    /// The query refused, before anything is sent, if its plan needs more
    /// requests than `budget` allows (`rest::budget`).
    pub fn with_budget(mut self, budget: Budget) -> HistoryQuery {
        self.budget = budget;
        self
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The query with its end no later than `last`; None if nothing is left.
    pub(crate) fn ending_by(&self, last: NaiveDate) -> Option<HistoryQuery> {
        let end = self.end.min(last);
        (self.start <= end).then(|| HistoryQuery {
            end,
            ..self.clone()
        })
    }

    /// The query pulling `contracts` of the curve; tenors named are refused
    /// beside any but the listed.
    pub fn with_contracts(mut self, contracts: Contracts) -> Result<HistoryQuery, ClientError> {
        if contracts != Contracts::Listed && self.tenors.is_some() {
            return Err(ClientError::invalid(
                places::Argument::Tenors,
                places::Rule::Conflict,
                "tenors are either named or 'expired' / 'all', not both",
            ));
        }
        self.contracts = contracts;
        Ok(self)
    }

    pub fn contracts(&self) -> Contracts {
        self.contracts
    }

    /// The curve id, without surrounding blanks.
    pub fn curve_id(&self) -> &str {
        &self.curve_id
    }

    pub fn start(&self) -> NaiveDate {
        self.start
    }

    pub fn end(&self) -> NaiveDate {
        self.end
    }

    /// The tenors asked for, as given (repeats included); None for all.
    pub fn tenors(&self) -> Option<&[Tenor]> {
        self.tenors.as_deref()
    }
}

/// The catalogue filters: the interface's three in its spelling, and custom
/// keys (`grade`, `loadPort`) sent as they are. The default asks for every
/// curve quotation.
#[derive(Clone, Debug, Default)]
pub struct CatalogueQuery {
    vertical: Option<&'static Vertical>,
    quotation: Option<&'static str>,
    region: Option<&'static str>,
    custom: Vec<(String, String)>,
}

impl CatalogueQuery {
    /// Vertical, quotation and region in any spelling (`FUEL_OIL`, `fob`);
    /// a quotation or region must be one of the vertical's when a vertical
    /// is given. Custom filters are `(key, value)` pairs.
    pub fn new(
        vertical: Option<&str>,
        quotation: Option<&str>,
        region: Option<&str>,
        custom: Vec<(String, String)>,
    ) -> Result<CatalogueQuery, ClientError> {
        let vertical = vertical.map(validate::vertical).transpose()?;
        let quotation = quotation
            .map(|q| validate::vocabulary_value("quotation", q, vertical, |v| v.quotations))
            .transpose()?;
        let region = region
            .map(|r| validate::vocabulary_value("region", r, vertical, |v| v.regions))
            .transpose()?;
        for (key, value) in &custom {
            custom_filter(key, value)?;
        }
        Ok(CatalogueQuery {
            vertical,
            quotation,
            region,
            custom,
        })
    }

    /// The query as text, the same for the same filters in any order: what
    /// keys its cached answer.
    pub(crate) fn cache_key(&self) -> String {
        let mut params = self.params();
        params.sort();
        params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The filters in words, for messages.
    pub(crate) fn describe(&self) -> String {
        match self.cache_key() {
            key if key.is_empty() => "all curves".into(),
            key => format!("the filters {key}"),
        }
    }

    /// The query parameters of `GET /catalogue`.
    pub(crate) fn params(&self) -> Vec<(String, String)> {
        let interface = [
            ("vertical", self.vertical.map(|v| v.name)),
            ("quotation", self.quotation),
            ("region", self.region),
        ];
        let interface = interface
            .into_iter()
            .filter_map(|(key, value)| Some((key, value?.to_owned())));
        let custom = self.custom.iter().map(|(k, v)| (k.as_str(), v.clone()));
        interface
            .chain(custom)
            .map(|(key, value)| (format!("filter[{key}]"), value))
            .collect()
    }
}

/// A custom filter becomes `filter[key]=value`: the key a word that can sit
/// between the brackets, the value not blank (a blank one filters nothing
/// the caller could mean).
fn custom_filter(key: &str, value: &str) -> Result<(), ClientError> {
    if key.trim().is_empty() || key.chars().any(char::is_control) {
        return Err(ClientError::invalid(
            places::Argument::Filter,
            places::Rule::Form,
            format!("a catalogue filter name must be a non-empty word, not {key:?}"),
        ));
    }
    if value.trim().is_empty() {
        return Err(ClientError::invalid(
            places::Argument::Filter,
            places::Rule::Empty,
            format!("the catalogue filter {key} must have a value, not {value:?}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "query_tests.rs"]
mod tests;
