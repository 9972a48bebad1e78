//! `GET /v2/historical/intraday/<curve_id>/<tenor>`: values of whole UTC
//! days over a window of at most 30 days, up to the clock (the paging of
//! its pages is in `paging_tests.rs`).

use crate::routes::test_app::{
    curve_where, fob_curve, items_of, page_of, price_record, utc, App, UNKNOWN_CURVE,
};
use crate::world::curves::Curve;

fn path(curve: &Curve) -> String {
    format!("/v2/historical/intraday/{}/Jul%2025", curve.id)
}

/// How many values the window holds, from its last page alone.
async fn total(app: &App, curve: &Curve, start: &str, end: &str) -> usize {
    let uri = format!(
        "{}?startDate={start}&endDate={end}&pageSize=1000",
        path(curve)
    );
    let first = app.ok(&uri, &app.demo()).await;
    let last = app.ok(first["last"].as_str().unwrap(), &app.demo()).await;
    (page_of(&first["last"]) - 1) * 1000 + last["items"].as_array().unwrap().len()
}

#[tokio::test]
async fn a_weekday_holds_every_slot_of_the_curves_granularity() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let per_day = 1440 / curve.profile.granularity_minutes as usize;
    assert_eq!(
        total(&app, &curve, "2025-06-12", "2025-06-12").await,
        per_day
    );
    // A week holds five weekdays, a 30-day window its 22.
    assert_eq!(
        total(&app, &curve, "2025-06-02", "2025-06-08").await,
        5 * per_day
    );
    assert_eq!(
        total(&app, &curve, "2025-05-01", "2025-05-30").await,
        22 * per_day
    );
    let weekend = format!("{}?startDate=2025-06-07&endDate=2025-06-08", path(&curve));
    let body = app.ok(&weekend, &app.demo()).await;
    assert_eq!(body["items"], serde_json::json!([]));
    assert!(body["next"].is_null() && body["prev"].is_null());
}

#[tokio::test]
async fn values_are_records_of_the_tenor_up_to_the_clock() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let uri = format!(
        "{}?startDate=2025-06-13&endDate=2025-06-20&pageSize=1000",
        path(&curve)
    );
    let items = items_of(&app.pages(&uri, &app.demo()).await);
    let stamps: Vec<_> = items
        .iter()
        .map(|v| price_record(v, "Jul 25", curve.units))
        .collect();
    let now = utc("2025-06-13 17:00");
    let last = *stamps.last().expect("values today");
    assert!(
        last <= now && now - last <= chrono::Duration::minutes(16),
        "{last}"
    );
    assert!(stamps.iter().all(|s| s.date() == now.date()));
}

#[tokio::test]
async fn a_thirty_day_window_is_served_and_a_longer_one_is_400() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let token = app.demo();
    let query =
        |start: &str, end: &str| format!("{}?startDate={start}&endDate={end}", path(&curve));
    assert_eq!(
        app.get(&query("2025-05-01", "2025-05-30"), &token)
            .await
            .status,
        200
    );
    let message = app
        .get(&query("2025-05-01", "2025-05-31"), &token)
        .await
        .error(400);
    assert_eq!(
        message,
        "the window is at most 30 days; 2025-05-01 to 2025-05-31 is 31 days"
    );
    app.get(&query("2025-01-01", "2025-06-13"), &token)
        .await
        .error(400);
}

#[tokio::test]
async fn bad_parameters_curves_and_tenors() {
    let app = App::new();
    let fob = fob_curve(&app.world());
    let token = app.demo();
    for query in [
        "",
        "startDate=2025-06-01",
        "endDate=2025-06-13",
        "startDate=2025/06/01&endDate=2025-06-13",
        "startDate=2025-06-01&endDate=2025-02-30",
        "startDate=2025-06-13&endDate=2025-06-12",
    ] {
        let uri = format!("{}?{query}", path(&fob));
        app.get(&uri, &token).await.error(400);
    }
    let day = "startDate=2025-06-12&endDate=2025-06-12";
    let unknown = format!("/v2/historical/intraday/{UNKNOWN_CURVE}/Jul%2025?{day}");
    app.get(&unknown, &token).await.error(404);
    let bad_tenor = format!("/v2/historical/intraday/{}/Q5%2025?{day}", fob.id);
    app.get(&bad_tenor, &token).await.error(400);
    let plain = curve_where(&app.world(), |c| {
        c.quotation != "Sales" && !c.profile.continuous
    });
    let not_offered = format!("/v2/historical/intraday/{}/C%2000?{day}", plain.id);
    app.get(&not_offered, &token).await.error(404);
}
