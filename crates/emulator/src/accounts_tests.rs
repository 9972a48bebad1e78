use super::*;

const NOW: Micros = 1_750_000_000_000_000;

#[test]
fn login_issues_a_token_that_verifies_for_twelve_hours() {
    let accounts = Accounts::new(0);
    assert!(accounts.login(DEMO_EMAIL, "wrong", NOW).is_none());
    assert!(accounts.login("nobody@x", DEMO_PASSWORD, NOW).is_none());
    let token = accounts.login(DEMO_EMAIL, DEMO_PASSWORD, NOW).unwrap();
    assert_eq!(accounts.verify(&token, NOW).unwrap(), DEMO_EMAIL);
    let almost = NOW + (TOKEN_LIFETIME_SECONDS - 1) * 1_000_000;
    assert!(accounts.verify(&token, almost).is_ok());
    let after = NOW + TOKEN_LIFETIME_SECONDS * 1_000_000;
    assert_eq!(accounts.verify(&token, after), Err(TokenError::Expired));
}

#[test]
fn tampered_or_foreign_tokens_are_invalid() {
    let accounts = Accounts::new(0);
    let token = accounts.issue(DEMO_EMAIL, NOW);
    let mut tampered = token.clone();
    tampered.insert(token.find('.').unwrap() + 3, 'x');
    assert_eq!(accounts.verify(&tampered, NOW), Err(TokenError::Invalid));
    assert_eq!(accounts.verify("a.b", NOW), Err(TokenError::Invalid));
    let other = Accounts::new(1).issue(DEMO_EMAIL, NOW);
    assert_eq!(accounts.verify(&other, NOW), Err(TokenError::Invalid));
}

#[test]
fn expire_all_ends_every_issued_token() {
    let accounts = Accounts::new(0);
    let token = accounts.issue(DEMO_EMAIL, NOW);
    accounts.expire_all();
    assert_eq!(accounts.verify(&token, NOW), Err(TokenError::Expired));
    assert!(accounts
        .verify(&accounts.issue(DEMO_EMAIL, NOW), NOW)
        .is_ok());
}

#[test]
fn licences_deny_quotations_and_can_be_revoked() {
    let accounts = Accounts::new(0);
    assert!(!accounts.licence(DEMO_EMAIL).allows("Sales"));
    assert!(accounts.licence(DEMO_EMAIL).allows("Fob"));
    assert!(accounts.licence(FULL_EMAIL).allows("Sales"));
    assert!(accounts.revoke(FULL_EMAIL, Some("Fob")));
    assert!(!accounts.licence(FULL_EMAIL).allows("Fob"));
    assert!(accounts.revoke(FULL_EMAIL, None));
    assert!(!accounts.licence(FULL_EMAIL).allows("Price"));
    assert!(accounts.restore(FULL_EMAIL));
    assert!(accounts.licence(FULL_EMAIL).allows("Fob"));
    assert!(!accounts.revoke("nobody", None));
}

#[test]
fn live_access_is_part_of_the_licence() {
    let accounts = Accounts::new(0);
    assert!(accounts.licence(DEMO_EMAIL).allows_live("Fob"));
    assert!(!accounts.licence(DEMO_EMAIL).allows_live("Sales"));
    let rest_only = accounts.licence(REST_ONLY_EMAIL);
    assert!(rest_only.allows("Sales") && !rest_only.allows_live("Fob"));
    assert!(accounts
        .login(REST_ONLY_EMAIL, REST_ONLY_PASSWORD, NOW)
        .is_some());
    assert!(accounts.revoke_live(FULL_EMAIL));
    assert!(!accounts.licence(FULL_EMAIL).allows_live("Fob"));
    assert!(accounts.restore(FULL_EMAIL));
    assert!(accounts.licence(FULL_EMAIL).allows_live("Fob"));
    assert!(!accounts.revoke_live("nobody"));
    assert!(!accounts.licence("nobody").live);
}

#[test]
fn only_the_demo_account_has_a_bulk_start() {
    let accounts = Accounts::new(0);
    let demo = accounts.licence(DEMO_EMAIL).bulk_start.unwrap();
    assert_eq!(demo.to_string(), DEMO_BULK_START);
    assert_eq!(accounts.licence(FULL_EMAIL).bulk_start, None);
}
