//! The subscriptions a feed holds: what the caller asked for, resubscribed
//! after every reconnect. Removing `*` removes every tenor of the curve,
//! explicit ones too, as the service does (docs/protocol.md#live-feed).

use std::collections::BTreeSet;

use crate::rest::validate;
use crate::ClientError;
use domain::live::{Subscription, ALL_TENORS};

/// Checks a subscription's arguments before anything is sent: a curve id,
/// and `*` or a tenor name (a known shape must have possible values).
/// Surrounding blanks are removed.
pub fn checked_subscription(curve_id: &str, tenor: &str) -> Result<Subscription, ClientError> {
    let curve_id = validate::curve_id(curve_id)?;
    // Refused before trimming, so that "Jan 26\n" is refused here as the
    // REST methods refuse it, not read as "Jan 26".
    if tenor.chars().any(char::is_control) {
        return Err(ClientError::InvalidRequest(format!(
            "tenor must be '*' or a tenor name such as 'Jan 26', not {tenor:?}"
        )));
    }
    let tenor = tenor.trim();
    if tenor == ALL_TENORS {
        return Ok(Subscription::new(curve_id, ALL_TENORS));
    }
    let tenor = validate::tenor(tenor)?;
    Ok(Subscription::new(curve_id, tenor.name()))
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SubscriptionSet {
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
