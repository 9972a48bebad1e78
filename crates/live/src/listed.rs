//! A live subscription checked against the catalogue before it is sent.
//!
//! The service answers a subscription to a curve or contract it does not
//! publish with silence (live rule 2: no snapshot, no error), so a mistyped
//! tenor (`Jul 99`) or an expired contract would wait for ever. A strict
//! subscription (the default) must name a curve the catalogue lists and,
//! unless it is `*`, one of the contracts the catalogue lists for it.

use domain::live::Subscription;
use domain::records::CurveQuotation;
use domain::tenor::Tenor;
use history::rest::tenor_rules::contracts_of;
use places::ClientError;

/// What a feed's refusal adds: how to subscribe anyway.
pub const SUBSCRIBE_ANYWAY: &str =
    "pass strict=False (marketcurves live: --no-strict) to subscribe anyway";

/// That `subscription` names a listed curve and, unless `*`, a listed
/// contract of it, in the catalogue `curves`; a refusal ends with `remedy`.
pub fn check_listed(
    curves: &[CurveQuotation],
    subscription: &Subscription,
    remedy: &str,
) -> Result<(), ClientError> {
    let curve_id = subscription.curve_id.as_str();
    let Some(curve) = curves.iter().find(|c| c.id.as_deref() == Some(curve_id)) else {
        return Err(ClientError::InvalidRequest(format!(
            "curve_id {curve_id:?} is not in the catalogue: the live feed would send nothing \
             for it; {remedy}"
        )));
    };
    if subscription.is_all_tenors() {
        return Ok(());
    }
    let contracts = contracts_of(curve);
    if contracts.contains(&Tenor::parse_lenient(&subscription.tenor)) {
        return Ok(());
    }
    let listed: Vec<&str> = contracts.iter().map(Tenor::name).collect();
    Err(ClientError::InvalidRequest(format!(
        "tenor {:?} is not among the contracts the catalogue lists for curve {curve_id} ({}): \
         the live feed sends nothing for an unlisted contract; {remedy}",
        subscription.tenor,
        listed.join(", ")
    )))
}

#[cfg(test)]
#[path = "listed_tests.rs"]
mod tests;
