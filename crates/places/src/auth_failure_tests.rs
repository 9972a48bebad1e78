use super::*;
use crate::ClientError;

#[test]
fn a_refused_login_carries_its_endpoint_and_status() {
    let failure = AuthFailure::new(
        AuthReason::LoginRefused { status: 401 },
        Some("POST /authenticate".into()),
        "bad password",
    );
    assert_eq!(failure.reason, AuthReason::LoginRefused { status: 401 });
    assert_eq!(failure.host.as_deref(), Some("POST /authenticate"));
    assert_eq!(
        failure.to_string(),
        "POST /authenticate: login refused (HTTP 401): bad password"
    );
}

#[test]
fn the_arguments_are_worded_by_whoever_words_them() {
    let failure = AuthFailure::new(AuthReason::ProviderEmpty, None, "");
    assert_eq!(
        failure.to_string(),
        "token provider returned an empty token"
    );
    let named = failure.words(|argument| match argument {
        Argument::TokenProvider => "token_provider",
        other => other.words(),
    });
    assert_eq!(named, "token_provider returned an empty token");
}

#[test]
fn context_goes_first_and_the_error_keeps_its_fields() {
    let failure = AuthFailure::new(AuthReason::ProviderEmpty, None, "");
    let error = ClientError::Auth(failure)
        .auth_in_context("no token for the live feed")
        .expect("an auth failure");
    let ClientError::Auth(failure) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(failure.reason, AuthReason::ProviderEmpty);
    assert_eq!(
        error.to_string(),
        "no token for the live feed: token provider returned an empty token"
    );
}
