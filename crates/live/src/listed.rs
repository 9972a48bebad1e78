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
use places::{Advice, Argument, ClientError, Invalid, Rule};

/// What a feed's refusal adds: how to subscribe anyway (a binding words it
/// with its own parameter, `strict`).
pub const SUBSCRIBE_ANYWAY: Advice = Advice::NotStrict;

/// How a refusal of an unlisted subscription ends: with advice (a feed's:
/// subscribe anyway) or with a rule of the caller's ("a recorder takes
/// listed contracts only").
#[derive(Debug, Clone, Copy)]
pub enum Remedy {
    Advice(Advice),
    Rule(&'static str),
}

fn refusal(argument: Argument, value: &str, words: String, remedy: Remedy) -> ClientError {
    let invalid = Invalid::new(argument, Rule::Unlisted, words).value(value);
    ClientError::InvalidRequest(match remedy {
        Remedy::Advice(advice) => invalid.advice(advice),
        Remedy::Rule(rule) => Invalid {
            words: format!("{}; {rule}", invalid.words),
            ..invalid
        },
    })
}

/// That `subscription` names a listed curve and, unless `*`, a listed
/// contract of it, in the catalogue `curves`; a refusal ends with `remedy`.
pub fn check_listed(
    curves: &[CurveQuotation],
    subscription: &Subscription,
    remedy: Remedy,
) -> Result<(), ClientError> {
    let curve_id = subscription.curve_id.as_str();
    let Some(curve) = curves.iter().find(|c| c.id.as_deref() == Some(curve_id)) else {
        return Err(refusal(
            Argument::Curve,
            curve_id,
            format!(
                "curve_id {curve_id:?} is not in the catalogue: the live feed would send \
                 nothing for it"
            ),
            remedy,
        ));
    };
    if subscription.is_all_tenors() {
        return Ok(());
    }
    let contracts = contracts_of(curve);
    if contracts.contains(&Tenor::parse_lenient(&subscription.tenor)) {
        return Ok(());
    }
    let listed: Vec<&str> = contracts.iter().map(Tenor::name).collect();
    Err(refusal(
        Argument::Tenor,
        &subscription.tenor,
        format!(
            "tenor {:?} is not among the contracts the catalogue lists for curve {curve_id} \
             ({}): the live feed sends nothing for an unlisted contract",
            subscription.tenor,
            listed.join(", ")
        ),
        remedy,
    ))
}

#[cfg(test)]
#[path = "listed_tests.rs"]
mod tests;
