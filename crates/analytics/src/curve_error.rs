//! Bad input to a curve function, as data. Most errors are words that name
//! none of the caller's arguments; those that name one, or one of its
//! values, carry it as a [`Term`], which a binding writes in its own syntax
//! (Python's `adjust='ratio'`), so the sentence is written once, here.

use super::adjust::Adjust;
use super::units::Unit;

/// An argument of the curve functions, or one of its values, as an error
/// names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Term {
    /// The adjustment of a rolling series, given this value.
    Adjust(Adjust),
    /// Weights of business days.
    BusinessWeights,
    /// What to give a conversion between mass and volume: a factor.
    GiveFactor,
}

impl Term {
    /// The term in the words of the Rust API.
    pub fn words(self) -> &'static str {
        match self {
            Term::Adjust(Adjust::None) => "no adjustment",
            Term::Adjust(Adjust::Difference) => "a difference adjustment",
            Term::Adjust(Adjust::Ratio) => "a ratio adjustment",
            Term::BusinessWeights => "business weights",
            Term::GiveFactor => "give a factor:",
        }
    }
}

/// Bad input to a curve function: an unknown kind or unit, a missing
/// column, a position past a curve's contracts, mixed units. The message
/// names the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.words(&|term| term.words().to_owned()))]
#[non_exhaustive]
pub enum CurveError {
    /// What is wrong, in words that name no argument.
    Said(String),
    /// A price a ratio adjustment cannot take (at or below zero): the
    /// curve, the tenor, the price and when, as shown, and what the ratio
    /// would have done with it.
    RatioNotAboveZero {
        curve_id: String,
        tenor: String,
        price: String,
        at: String,
        what: String,
    },
    /// A conversion between mass and volume of a curve whose product the
    /// table does not say, with no factor given for it.
    NeedsFactor {
        curve_id: String,
        from: Unit,
        to: Unit,
    },
    /// Holidays given with calendar weights, which would ignore them.
    HolidaysWithCalendarWeights,
}

impl CurveError {
    pub(crate) fn new(message: impl Into<String>) -> CurveError {
        CurveError::Said(message.into())
    }

    /// The message, with the terms it names worded by `term` (a binding
    /// passes its own; [`Display`](std::fmt::Display) the Rust API's words).
    pub fn words(&self, term: &dyn Fn(Term) -> String) -> String {
        match self {
            CurveError::Said(words) => words.clone(),
            CurveError::RatioNotAboveZero {
                curve_id,
                tenor,
                price,
                at,
                what,
            } => format!(
                "curve {curve_id}: {tenor} is priced {price} on {at}, which {} would {what}; \
                 a ratio needs prices above zero ({} takes a curve that goes negative)",
                term(Term::Adjust(Adjust::Ratio)),
                term(Term::Adjust(Adjust::Difference)),
            ),
            CurveError::NeedsFactor { curve_id, from, to } => format!(
                "curve {curve_id}: converting {} to {} needs barrels per tonne, and the table \
                 does not say which product the curve is; {} a number or a product name \
                 (Gasoline, Naphtha, Jet, ULSD, Fuel Oil, Crude)",
                from.as_str(),
                to.as_str(),
                term(Term::GiveFactor),
            ),
            CurveError::HolidaysWithCalendarWeights => format!(
                "holidays only apply to {}; calendar weights count every day",
                term(Term::BusinessWeights)
            ),
        }
    }
}

impl From<arrow_schema::ArrowError> for CurveError {
    fn from(error: arrow_schema::ArrowError) -> CurveError {
        CurveError::Said(format!("the table cannot be read: {error}"))
    }
}

#[cfg(test)]
#[path = "curve_error_tests.rs"]
mod tests;
