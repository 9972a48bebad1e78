use super::super::tests::{at, controls};
use super::*;
use crate::accounts::FULL_EMAIL;

#[test]
fn bulk_rows_follow_the_accounts_licence() {
    let controls = controls();
    let demo = controls.bulk_rows("JET", "2025-03", None).unwrap();
    let full = controls
        .bulk_rows("Jet", "2025-03", Some(FULL_EMAIL))
        .unwrap();
    assert!(demo > 0, "the demo account sees most Jet curves");
    assert!(demo < full, "but not those quoted as Sales");
    let unknown = controls.bulk_rows("Jet", "2025-03", Some("nobody@example.com"));
    assert_eq!(unknown, Ok(0), "an unknown account has no licence");
    controls.revoke_licence(None, None).unwrap();
    assert_eq!(controls.bulk_rows("Jet", "2025-03", None), Ok(0));
}

#[test]
fn bulk_rows_name_a_vertical_and_a_month() {
    let controls = controls();
    let vertical = controls.bulk_rows("Coal", "2025-03", None).unwrap_err();
    assert_eq!(vertical.to_string(), "unknown vertical \"Coal\"");
    let month = controls.bulk_rows("Jet", "March", None).unwrap_err();
    assert_eq!(month.to_string(), "month must be YYYY-MM, not \"March\"");
}

fn fob(controls: &Controls) -> String {
    let world = controls.state.world();
    world
        .curves
        .iter()
        .find(|c| c.quotation == "Fob")
        .unwrap()
        .id
        .clone()
}

#[test]
fn published_values_lie_between_both_ends_included() {
    let controls = controls();
    let curve = fob(&controls);
    let start = at("2025-06-12T00:00:00Z");
    let end = at("2025-06-12T23:59:59.999999Z");
    let day = controls
        .published(&curve, "Jul 25", Some(start), Some(end))
        .unwrap();
    assert!(!day.is_empty());
    assert!(day
        .windows(2)
        .all(|w| w[0].generated_on < w[1].generated_on));
    assert!(day
        .iter()
        .all(|v| start <= v.generated_on && v.generated_on <= end));
    let (first, last) = (day[0].generated_on, day[day.len() - 1].generated_on);
    let again = controls
        .published(&curve, "Jul 25", Some(first), Some(last))
        .unwrap();
    assert_eq!(again, day, "both ends are included");
}

#[test]
fn published_values_default_to_today_until_now() {
    let controls = controls();
    let curve = fob(&controls);
    let today = controls.published(&curve, "Jul 25", None, None).unwrap();
    let midnight = at("2025-06-13T00:00:00Z");
    let explicit = controls
        .published(&curve, "Jul 25", Some(midnight), Some(controls.now()))
        .unwrap();
    assert!(!today.is_empty());
    assert_eq!(today, explicit);
}

#[test]
fn published_values_need_a_known_curve_and_a_valid_tenor() {
    let controls = controls();
    let unknown = controls.published("no-such-curve", "Jul 25", None, None);
    assert_eq!(
        unknown.unwrap_err().to_string(),
        "unknown curve id \"no-such-curve\""
    );
    let tenor = controls.published(&fob(&controls), "Q5 25", None, None);
    assert!(matches!(tenor, Err(ControlError::Tenor(_))));
}
