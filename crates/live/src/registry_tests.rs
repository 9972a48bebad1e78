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

#[test]
fn a_tenor_in_another_letter_case_is_the_listed_spelling() {
    for (given, listed) in [
        ("feb 26", "Feb 26"),
        ("FEB 26", "Feb 26"),
        ("q1 26", "Q1 26"),
        ("c 01", "C 01"),
        ("Feb 26", "Feb 26"),
    ] {
        let subscription = checked_subscription("C1", given).unwrap();
        assert_eq!(subscription.tenor, listed, "{given}");
    }
}
