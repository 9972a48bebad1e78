use super::*;
use crate::accounts::FULL_EMAIL;
use crate::EmulatorConfig;

/// Controls of an emulator's state, with no server: its clock stands
/// still on Friday 2025-06-13 at 10:00 UTC.
pub(crate) fn controls() -> Controls {
    let config = EmulatorConfig::stopped_at(at("2025-06-13T10:00:00Z"));
    Controls::new(Arc::new(AppState::new(&config)))
}

pub(crate) fn at(instant: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(instant).unwrap().to_utc()
}

#[test]
fn the_clock_moves_when_told_and_refuses_impossible_moves() {
    let controls = controls();
    assert_eq!(controls.now(), at("2025-06-13T10:00:00Z"));
    controls.advance(90.5).unwrap();
    assert_eq!(controls.now(), at("2025-06-13T10:01:30.5Z"));
    controls.advance(-30.5).unwrap();
    assert_eq!(controls.now(), at("2025-06-13T10:01:00Z"));
    let error = controls.advance(f64::NAN).unwrap_err();
    assert_eq!(error.to_string(), "seconds must be a finite number");
    controls.set_time(at("2025-06-16T09:00:00Z"));
    assert_eq!(controls.now(), at("2025-06-16T09:00:00Z"));
}

#[test]
fn the_time_scale_changes_only_to_a_valid_speed() {
    let controls = controls();
    assert_eq!(controls.time_scale(), 0.0);
    controls.set_time_scale(60.0).unwrap();
    assert_eq!(controls.time_scale(), 60.0);
    assert_eq!(
        controls.set_time_scale(-1.0),
        Err(ControlError::TimeScale(-1.0))
    );
    assert_eq!(controls.time_scale(), 60.0);
}

#[test]
fn tokens_are_for_the_demo_account_unless_named_and_expire_together() {
    let controls = controls();
    let accounts = &controls.state.accounts;
    let now = controls.state.clock.now();
    let demo = controls.token(None);
    let full = controls.token(Some(FULL_EMAIL));
    assert_eq!(accounts.verify(&demo, now).unwrap(), DEMO_EMAIL);
    assert_eq!(accounts.verify(&full, now).unwrap(), FULL_EMAIL);
    assert_eq!(controls.credentials().email, DEMO_EMAIL);
    controls.expire_tokens();
    assert!(accounts.verify(&demo, now).is_err());
    assert!(accounts.verify(&full, now).is_err());
}

#[test]
fn licences_are_revoked_and_restored_for_known_accounts_only() {
    let controls = controls();
    let licence = || controls.state.accounts.licence(DEMO_EMAIL);
    controls.revoke_licence(None, Some("Fob")).unwrap();
    assert!(!licence().allows("Fob"));
    controls.revoke_live(None).unwrap();
    assert!(!licence().live);
    controls.restore_licence(None).unwrap();
    assert!(licence().allows("Fob") && licence().allows("Sales") && licence().live);
    controls.revoke_licence(None, None).unwrap();
    assert!(licence().revoked);
    let nobody = Some("nobody@example.com");
    let unknown = ControlError::UnknownAccount("nobody@example.com".into());
    assert_eq!(controls.revoke_licence(nobody, None), Err(unknown.clone()));
    assert_eq!(controls.restore_licence(nobody), Err(unknown.clone()));
    assert_eq!(controls.revoke_live(nobody), Err(unknown));
    assert_eq!(
        controls.revoke_live(nobody).unwrap_err().to_string(),
        "no account \"nobody@example.com\""
    );
}
