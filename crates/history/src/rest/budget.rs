//! A call's request budget: the most requests it may send, checked against
//! its plan before any of them is sent. The plan counts what it can know
//! beforehand: one request per tenor for settlements, one per tenor and
//! window of at most 30 days for intraday values (their first pages: how
//! many follow only the first answer says), one for the catalogue where it
//! must be fetched; days a cache holds cost nothing.

use places::{Advice, Argument, ClientError, Invalid, Rule};

/// The most requests a call may send; `None`, no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget(pub Option<u64>);

impl Budget {
    /// Refuses a plan that needs more than the budget allows.
    pub fn check(self, needed: u64) -> Result<(), ClientError> {
        match self.0 {
            Some(allowed) if needed > allowed => Err(over_budget(needed, allowed)),
            _ => Ok(()),
        }
    }

    pub fn is_limited(self) -> bool {
        self.0.is_some()
    }
}

/// The refusal of a call that needs `needed` requests where `allowed` are.
pub fn over_budget(needed: u64, allowed: u64) -> ClientError {
    let plural = if needed == 1 { "" } else { "s" };
    ClientError::InvalidRequest(
        Invalid::new(
            Argument::Budget,
            Rule::Budget {
                needed: saturated(needed),
                allowed: saturated(allowed),
            },
            format!(
                "the call needs {needed} request{plural}, more than its request budget of \
                 {allowed}"
            ),
        )
        .value(allowed.to_string())
        .advice(Advice::Narrow),
    )
}

fn saturated(count: u64) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[cfg(test)]
#[path = "budget_tests.rs"]
mod tests;
