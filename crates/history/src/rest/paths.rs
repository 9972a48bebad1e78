//! The service's endpoint paths, each id and tenor encoded as one path
//! segment (a `/` or `?` in a name never changes the path).

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use domain::decode::PriceEndpoint;

/// Characters left as they are in a path segment (RFC 3986 unreserved).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `text` percent-encoded as one path segment.
pub(crate) fn encoded(text: &str) -> String {
    utf8_percent_encode(text, UNRESERVED).to_string()
}

/// The path of a price endpoint for a curve and, in its one-tenor form, a tenor.
pub(crate) fn price_path(endpoint: PriceEndpoint, curve_id: &str, tenor: Option<&str>) -> String {
    let base = match endpoint {
        PriceEndpoint::LastSettlement | PriceEndpoint::LastSettlementAll => {
            "/ongoing/last-settlement"
        }
        PriceEndpoint::LastAssessments | PriceEndpoint::LastAssessmentsAll => {
            "/ongoing/last-assessments"
        }
        PriceEndpoint::OngoingIntraday => "/ongoing/intraday",
        PriceEndpoint::HistoricalSettlements => "/historical/settlements",
        PriceEndpoint::HistoricalIntraday => "/historical/intraday",
    };
    match tenor {
        Some(tenor) => format!("{base}/{}/{}", encoded(curve_id), encoded(tenor)),
        None => format!("{base}/{}", encoded(curve_id)),
    }
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;
