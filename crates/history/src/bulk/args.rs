//! The value rules of the bulk arguments' months (folders: `storage::folder`).
//! Bad input is an `InvalidRequest` naming the argument, found before
//! anything is sent or created (the design's engineering rules). Types are
//! the caller's concern: the Python package checks them in `_args.py`.

use crate::rest::validate;
use domain::month::Month;
use places::{Argument, ClientError, Rule};

fn invalid(argument: Argument, rule: Rule, message: String) -> ClientError {
    ClientError::invalid(argument, rule, message)
}

/// A month written `YYYY-MM` (surrounding blanks ignored).
pub fn month(name: &str, text: &str) -> Result<Month, ClientError> {
    Month::parse(text.trim()).ok_or_else(|| {
        invalid(
            Argument::Named(name.into()),
            Rule::Form,
            format!("{name} must be a month as YYYY-MM, not {text:?}"),
        )
    })
}

/// The months `start` to `end`, both included.
pub fn month_range(start: &str, end: &str) -> Result<(Month, Month), ClientError> {
    let (first, last) = (month("start", start)?, month("end", end)?);
    validate::date_range(first, last)?;
    Ok((first, last))
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
