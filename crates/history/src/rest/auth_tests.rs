use super::*;

fn jwt(claims: &str) -> String {
    format!(
        "eyJhbGciOiJIUzI1NiJ9.{}.c2ln",
        URL_SAFE_NO_PAD.encode(claims)
    )
}

#[test]
fn reads_the_times_of_a_jwt() {
    assert_eq!(jwt_times(&jwt(r#"{"iat":1,"exp":9}"#)), Some((Some(1), 9)));
    assert_eq!(jwt_times(&jwt(r#"{"exp":9}"#)), Some((None, 9)));
    assert_eq!(jwt_times("not-a-jwt"), None);
    assert_eq!(jwt_times("a.!!!.c"), None);
}

#[test]
fn a_token_is_used_for_its_lifetime_less_a_margin_whatever_the_clock() {
    let twelve_hours = jwt(r#"{"iat":1000,"exp":44200}"#);
    let expected = Some(Duration::from_secs(43_200 - 60));
    // Issued by a service whose clock is a year behind or ahead of ours.
    assert_eq!(usable_for(&twelve_hours, 1000), expected);
    assert_eq!(usable_for(&twelve_hours, 1000 + 31_536_000), expected);
    assert_eq!(
        usable_for(&jwt(r#"{"iat":0,"exp":100}"#), 0),
        Some(Duration::from_secs(90))
    );
}

#[test]
fn without_iat_the_local_clock_decides_and_a_past_expiry_waits_for_a_refusal() {
    assert_eq!(
        usable_for(&jwt(r#"{"exp":1600}"#), 1000),
        Some(Duration::from_secs(540))
    );
    assert_eq!(usable_for(&jwt(r#"{"exp":900}"#), 1000), None);
    assert_eq!(usable_for("opaque", 1000), None);
}
