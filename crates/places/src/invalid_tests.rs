use super::*;
use crate::ClientError;

#[test]
fn an_invalid_argument_carries_its_fields() {
    let invalid = Invalid::led(
        Argument::CacheMode,
        Rule::Conflict,
        " \"offline\" needs a cache directory",
    )
    .value("offline")
    .advice(Advice::CacheFolder);
    assert_eq!(invalid.argument, Argument::CacheMode);
    assert_eq!(invalid.rule, Rule::Conflict);
    assert_eq!(invalid.value.as_deref(), Some("offline"));
    assert_eq!(invalid.advice, Some(Advice::CacheFolder));
    assert_eq!(invalid.rest(), Some(" \"offline\" needs a cache directory"));
}

#[test]
fn its_message_names_no_parameter_of_another_language() {
    let error = ClientError::InvalidRequest(
        Invalid::new(
            Argument::CacheFolder,
            Rule::Conflict,
            "this client has no cache directory",
        )
        .advice(Advice::CacheFolder),
    );
    let message = error.to_string();
    assert!(
        message.starts_with("this client has no cache directory; "),
        "{message}"
    );
    assert!(!message.contains('='), "{message}");
}

#[test]
fn words_that_do_not_lead_with_the_argument_have_no_rest() {
    let invalid = Invalid::new(Argument::Range, Rule::Bounds, "start 2 is after end 1");
    assert_eq!(invalid.rest(), None);
    assert_eq!(invalid.to_string(), "start 2 is after end 1");
}

#[test]
fn an_internal_error_says_what_failed_and_why() {
    let error = ClientError::internal("reading the cache failed", "disk gone");
    assert!(matches!(&error, ClientError::Internal { what, cause }
        if what == "reading the cache failed" && cause == "disk gone"));
    assert_eq!(
        error.to_string(),
        "internal error: reading the cache failed: disk gone"
    );
}

#[test]
fn words_led_by_values_of_the_argument_keep_them_as_data() {
    let invalid = Invalid::led_by_values(
        Argument::Tenors,
        Rule::Conflict,
        &["expired", "all"],
        " widen (curve, '*') subscriptions",
    );
    assert_eq!(
        invalid.lead,
        Lead::Values(vec!["expired".into(), "all".into()])
    );
    assert_eq!(
        invalid.to_string(),
        "tenors \"expired\" and tenors \"all\" widen (curve, '*') subscriptions"
    );
    assert_eq!(invalid.rest(), Some(" widen (curve, '*') subscriptions"));
}
