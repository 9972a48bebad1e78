use super::*;
use crate::record::file::FileNote;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn complete(held: &mut Held, curve: &str, on: &str, tenors: &[&str]) {
    held.add(
        day(on),
        FileNote {
            curve_id: Some(curve.into()),
            complete: tenors.iter().map(|t| t.to_string()).collect(),
            ..FileNote::default()
        },
    );
}

#[test]
fn a_window_asks_only_the_days_each_tenor_lacks() {
    let tenors = [
        Tenor::parse("Jan 26").unwrap(),
        Tenor::parse("Feb 26").unwrap(),
    ];
    let mut held = Held::default();
    for on in ["2025-11-01", "2025-11-02", "2025-11-03"] {
        complete(&mut held, "C1", on, &["Jan 26", "Feb 26"]);
    }
    complete(&mut held, "C1", "2025-11-04", &["Jan 26"]);
    // Another curve's days are not this one's.
    complete(&mut held, "C2", "2025-11-05", &["Feb 26"]);
    let mut plan = Plan::default();
    let window = (day("2025-11-01"), day("2025-11-05"));
    plan_window(&held, "C1", &tenors, window, &mut plan);
    let task = |tenor: &str, start| BackfillTask {
        curve_id: "C1".into(),
        tenors: vec![tenor.into()],
        start: day(start),
        end: day("2025-11-05"),
    };
    // Jan lacks one day, Feb two: Jan's complete day is not fetched again.
    assert_eq!(
        plan.tasks,
        vec![task("Feb 26", "2025-11-04"), task("Jan 26", "2025-11-05")]
    );
    assert_eq!(plan.days_skipped, 7);

    complete(&mut held, "C1", "2025-11-05", &["Jan 26", "Feb 26"]);
    complete(&mut held, "C1", "2025-11-04", &["Feb 26"]);
    let mut again = Plan::default();
    plan_window(&held, "C1", &tenors, window, &mut again);
    assert_eq!(again.tasks, vec![]);
    assert_eq!(again.days_skipped, 10);
}

#[test]
fn a_request_is_checked_before_anything_is_sent() {
    let one = [("C1".to_string(), "Jan 26".to_string())];
    let (start, end) = (day("2025-11-01"), day("2025-11-30"));
    assert!(BackfillRequest::new(&one, start, end, "listed").is_ok());
    let refused = |subscriptions: &[(String, String)], start, end, contracts| {
        matches!(
            BackfillRequest::new(subscriptions, start, end, contracts),
            Err(ClientError::InvalidRequest(_))
        )
    };
    assert!(refused(&[], start, end, "listed"));
    assert!(refused(&one, end, start, "listed"));
    assert!(refused(&one, day("0025-11-01"), end, "listed"));
    assert!(refused(&one, start, end, "expired"));
    assert!(refused(&one, start, end, "some"));
    let bad_tenor = [("C1".to_string(), "Q5 26".to_string())];
    assert!(refused(&bad_tenor, start, end, "listed"));
    let star = [("C1".to_string(), "*".to_string())];
    assert!(BackfillRequest::new(&star, start, end, "all").is_ok());
}
