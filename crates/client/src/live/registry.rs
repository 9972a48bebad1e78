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

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.subscriptions.is_empty()
    }

    /// In order: by curve, then tenor (`*` first).
    pub fn list(&self) -> Vec<Subscription> {
        self.subscriptions.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(curve: &str, tenor: &str) -> Subscription {
        Subscription::new(curve, tenor)
    }

    #[test]
    fn unsubscribing_all_tenors_removes_the_explicit_ones_of_that_curve_only() {
        let mut set = SubscriptionSet::default();
        assert!(set.add(sub("a", "Jan 26")));
        assert!(!set.add(sub("a", "Jan 26")));
        set.add(sub("a", "C 00"));
        set.add(sub("a", "*"));
        set.add(sub("b", "Jan 26"));
        assert_eq!(set.len(), 4);
        let removed = set.remove(&sub("a", "*"));
        assert_eq!(
            removed,
            vec![sub("a", "*"), sub("a", "C 00"), sub("a", "Jan 26")]
        );
        assert_eq!(set.list(), vec![sub("b", "Jan 26")]);
    }

    #[test]
    fn unsubscribing_one_tenor_leaves_the_curve_wide_subscription() {
        let mut set = SubscriptionSet::default();
        set.add(sub("a", "*"));
        set.add(sub("a", "Feb 26"));
        assert_eq!(set.remove(&sub("a", "Feb 26")), vec![sub("a", "Feb 26")]);
        assert!(set.contains(&sub("a", "*")));
        assert!(set.remove(&sub("a", "Mar 26")).is_empty());
        assert!(set.remove(&sub("z", "*")).is_empty());
        set.add(sub("a", "Mar 26"));
        assert!(set.discard(&sub("a", "*")));
        assert!(set.contains(&sub("a", "Mar 26")));
        assert!(!set.is_empty());
    }

    #[test]
    fn arguments_are_checked_and_named_before_anything_is_sent() {
        assert_eq!(
            checked_subscription(" c-1 ", " * ").unwrap(),
            sub("c-1", "*")
        );
        assert_eq!(
            checked_subscription("c-1", "26-EOM Feb 24").unwrap(),
            sub("c-1", "26-EOM Feb 24")
        );
        // Shapes the interface does not show are the service's to judge.
        assert_eq!(
            checked_subscription("c", "1H Jan 26").unwrap(),
            sub("c", "1H Jan 26")
        );
        let message = |c: &str, t: &str| checked_subscription(c, t).unwrap_err().to_string();
        assert!(message("", "Jan 26").contains("curve_id"));
        assert!(message("c", "").contains("tenor"));
        assert!(message("c", "   ").contains("tenor"));
        assert!(message("c", "Q5 26").contains("tenor"));
        assert!(message("c", "Jan\n26").contains("tenor"));
        assert!(message("c", "Jan 26\n").contains("tenor"));
        assert!(message("c", "*\t").contains("tenor"));
        assert!(matches!(
            checked_subscription("c", ""),
            Err(ClientError::InvalidRequest(_))
        ));
    }
}
