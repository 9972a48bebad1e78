use super::*;

#[test]
fn a_plan_within_the_budget_or_without_one_passes() {
    assert!(Budget(None).check(1_000).is_ok());
    assert!(Budget(Some(3)).check(3).is_ok());
    assert!(Budget(Some(0)).check(0).is_ok());
}

#[test]
fn a_plan_over_the_budget_is_refused_as_data_with_advice() {
    let Err(ClientError::InvalidRequest(invalid)) = Budget(Some(2)).check(5) else {
        panic!("a plan of 5 requests passed a budget of 2");
    };
    assert_eq!(invalid.argument, Argument::Budget);
    assert_eq!(
        invalid.rule,
        Rule::Budget {
            needed: 5,
            allowed: 2
        }
    );
    assert_eq!(invalid.advice, Some(Advice::Narrow));
    let text = invalid.to_string();
    assert!(
        text.contains("5 requests") && text.contains("budget of 2"),
        "{text}"
    );
    assert!(text.contains("fewer tenors"), "{text}");
}
