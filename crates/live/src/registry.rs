//! The subscriptions a feed holds: what the caller asked for, resubscribed
//! after every reconnect. Removing `*` removes every tenor of the curve,
//! explicit ones too, as the service does (docs/protocol.md#live-feed).

use std::collections::BTreeSet;

use chrono::Datelike;
use domain::live::{Subscription, ALL_TENORS};
use domain::tenor::{Tenor, TenorKind};
use history::rest::validate;
use places::ClientError;

/// Checks a subscription's arguments before anything is sent: a curve id,
/// and `*` or a tenor name (a known shape must have possible values).
/// Surrounding blanks are removed.
pub fn checked_subscription(curve_id: &str, tenor: &str) -> Result<Subscription, ClientError> {
    let curve_id = validate::curve_id(curve_id)?;
    // Refused before trimming, so that "Jan 26\n" is refused here as the
    // REST methods refuse it, not read as "Jan 26".
    if tenor.chars().any(char::is_control) {
        return Err(ClientError::invalid(
            places::Argument::Tenor,
            places::Rule::Form,
            format!("tenor must be '*' or a tenor name such as 'Jan 26', not {tenor:?}"),
        ));
    }
    let tenor = tenor.trim();
    if tenor == ALL_TENORS {
        return Ok(Subscription::new(curve_id, ALL_TENORS));
    }
    let tenor = validate::tenor(tenor)?;
    Ok(Subscription::new(curve_id, listed_spelling(&tenor)))
}

/// A tenor in the spelling the catalogue and the feed use (`feb 26` is
/// `Feb 26`, `q1 26` is `Q1 26`): one contract is never held, recorded or
/// backfilled under two names. Only letter case is changed; a shape the
/// package does not write itself is kept as given.
pub(crate) fn listed_spelling(tenor: &Tenor) -> String {
    let given = tenor.name();
    let ours = match (tenor.kind(), tenor.start()) {
        (TenorKind::Month, Some(s)) => Some(Tenor::month_name(s.year(), s.month())),
        (TenorKind::Quarter, Some(s)) => {
            Some(format!("Q{} {:02}", s.month().div_ceil(3), s.year() % 100))
        }
        (TenorKind::Window, Some(s)) => Some(Tenor::window_name(s.year(), s.month(), s.day())),
        (TenorKind::Continuous, _) => Some(given.to_ascii_uppercase()),
        _ => None,
    };
    match ours {
        Some(ours) if ours.eq_ignore_ascii_case(given) => ours,
        _ => given.to_owned(),
    }
}

#[derive(Clone, Debug, Default)]
pub struct SubscriptionSet {
    subscriptions: BTreeSet<Subscription>,
}

impl SubscriptionSet {
    /// Records a subscription; false if it was already there.
    pub fn add(&mut self, subscription: Subscription) -> bool {
        self.subscriptions.insert(subscription)
    }

    /// Removes a subscription, or for `*` every subscription of the curve;
    /// returns what was removed.
    pub fn remove(&mut self, subscription: &Subscription) -> Vec<Subscription> {
        let removed: Vec<Subscription> = self
            .subscriptions
            .iter()
            .filter(|s| {
                s.curve_id == subscription.curve_id
                    && (subscription.is_all_tenors() || s.tenor == subscription.tenor)
            })
            .cloned()
            .collect();
        for s in &removed {
            self.subscriptions.remove(s);
        }
        removed
    }

    /// Removes exactly this subscription (`*` only the curve-wide one): the
    /// service refused it.
    pub fn discard(&mut self, subscription: &Subscription) -> bool {
        self.subscriptions.remove(subscription)
    }

    pub fn contains(&self, subscription: &Subscription) -> bool {
        self.subscriptions.contains(subscription)
    }

    pub fn len(&self) -> usize {
        self.subscriptions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.subscriptions.is_empty()
    }

    /// In order: by curve, then tenor (`*` first).
    pub fn list(&self) -> Vec<Subscription> {
        self.subscriptions.iter().cloned().collect()
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
