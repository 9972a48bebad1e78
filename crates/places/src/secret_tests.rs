use super::*;

#[test]
fn debug_hides_the_value() {
    let secret = Secret::new("eyJhbGciOi.secret.sig");
    assert_eq!(format!("{secret:?}"), "Secret(***)");
    assert_eq!(secret.expose(), "eyJhbGciOi.secret.sig");
}
