use super::imf_fixdate;
use crate::accounts::FULL_EMAIL;
use crate::control::tests::at;
use crate::faults::Corruption;
use crate::live::LIVE_PATH;
use crate::routes::tests::{send, stopped_at};

/// The emulator's clock, stopped a long way from the machine's.
const START: &str = "2025-06-13T10:00:00Z";
const NOW: &str = "Fri, 13 Jun 2025 10:00:00 GMT";

#[test]
fn an_http_date_is_the_imf_fixdate_truncated_to_the_second() {
    assert_eq!(imf_fixdate(at(START)), NOW);
    assert_eq!(
        imf_fixdate(at("2026-11-24T10:00:00Z")),
        "Tue, 24 Nov 2026 10:00:00 GMT"
    );
    assert_eq!(
        imf_fixdate(at("2019-01-05T07:08:09.999Z")),
        "Sat, 05 Jan 2019 07:08:09 GMT"
    );
}

#[tokio::test]
async fn data_routes_and_errors_are_dated_by_the_emulators_clock() {
    let emulator = stopped_at(START).await;
    let curve = &emulator.state().world().curves[0].id;
    let bearer = format!("Bearer {}", emulator.controls().token(Some(FULL_EMAIL)));
    let path = format!("/v2/ongoing/last-settlement/{curve}");
    let data = send(&emulator, "GET", &path, &[("Authorization", &bearer)], "").await;
    assert_eq!(data.status, 200);
    // One Date, the emulator's: hyper adds its own only when there is none.
    assert_eq!(data.header("Date"), Some(NOW));

    let nowhere = send(&emulator, "GET", "/v2/nowhere", &[], "").await;
    assert_eq!(nowhere.status, 404);
    assert_eq!(nowhere.header("Date"), Some(NOW));
    let unauthorized = send(&emulator, "GET", "/v2/catalogue", &[], "").await;
    assert_eq!(unauthorized.status, 401);
    assert_eq!(unauthorized.header("Date"), Some(NOW));
    let unsigned = send(&emulator, "GET", "/files/job/f.parquet", &[], "").await;
    assert_eq!(unsigned.status, 403);
    assert_eq!(unsigned.header("Date"), Some(NOW));
    let not_upgraded = send(&emulator, "GET", LIVE_PATH, &[], "").await;
    assert_eq!(not_upgraded.status, 400);
    assert_eq!(not_upgraded.header("Date"), Some(NOW));

    // The clock moves, in the past here: the Date follows it.
    emulator.controls().set_time(at("2019-03-01T12:34:56.7Z"));
    let moved = send(&emulator, "GET", "/v2/nowhere", &[], "").await;
    assert_eq!(moved.header("Date"), Some("Fri, 01 Mar 2019 12:34:56 GMT"));
}

#[tokio::test]
async fn injected_faults_are_dated_too() {
    let emulator = stopped_at(START).await;
    let controls = emulator.controls();
    controls.fail_next(1, 503, None, Some(2)).unwrap();
    let failed = send(&emulator, "GET", "/v2/catalogue", &[], "").await;
    assert_eq!(failed.status, 503);
    assert_eq!(failed.header("Retry-After"), Some("2"));
    assert_eq!(failed.header("Date"), Some(NOW));

    controls
        .corrupt_next(1, None, Corruption::Malformed)
        .unwrap();
    let corrupted = send(&emulator, "GET", "/v2/catalogue", &[], "").await;
    assert_eq!(corrupted.header("Content-Type"), Some("text/html"));
    assert_eq!(corrupted.header("Date"), Some(NOW));

    controls.reset_next(1, None).unwrap();
    let broken = send(&emulator, "GET", "/v2/catalogue", &[], "").await;
    assert_eq!(broken.header("Date"), Some(NOW));
}
