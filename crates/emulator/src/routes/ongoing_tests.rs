//! The ongoing endpoints: last settlement, last assessments and intraday of
//! the current UTC day, each as published by the clock, and the same value
//! on every endpoint that shows it.

use serde_json::Value;

use crate::control::tests::at;
use crate::routes::test_app::{
    curve_where, fob_curve, items_of, keys, price_record, utc, App, UNKNOWN_CURVE,
};
use crate::world::contracts::contracts;

/// The `generatedOn` of each snapshot of an assessment set, `None` if null.
fn snapshot_times(set: &Value, tenor: &str, units: &str) -> [Option<String>; 3] {
    ["singaporeSnapshot", "londonSnapshot", "newYorkSnapshot"].map(|key| {
        let record = &set[key];
        (!record.is_null()).then(|| price_record(record, tenor, units).format("%R").to_string())
    })
}

#[tokio::test]
async fn the_last_settlement_is_todays_london_snapshot_once_published() {
    let app = App::at("2025-06-13T10:00:00Z");
    let curve = fob_curve(&app.world());
    let one = format!("/v2/ongoing/last-settlement/{}/Jul%2025", curve.id);
    let all = format!("/v2/ongoing/last-settlement/{}", curve.id);
    let message = app.get(&one, &app.demo()).await.error(404);
    assert_eq!(
        message,
        "no settlement of \"Jul 25\" published yet for 2025-06-13"
    );
    assert_eq!(
        app.ok(&all, &app.demo()).await,
        serde_json::json!({ "items": [] })
    );

    app.controls().set_time(at("2025-06-13T17:00:00Z"));
    let record = app.ok(&one, &app.demo()).await;
    assert_eq!(
        price_record(&record, "Jul 25", curve.units),
        utc("2025-06-13 15:30")
    );
    let body = app.ok(&all, &app.demo()).await;
    assert_eq!(keys(&body), ["items"]);
    let listed = contracts(&curve, utc("2025-06-13 00:00").date());
    let tenors: Vec<&str> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tenor"].as_str().unwrap())
        .collect();
    assert_eq!(tenors, listed.iter().map(|t| t.name()).collect::<Vec<_>>());
    assert!(body["items"].as_array().unwrap().contains(&record));
}

#[tokio::test]
async fn there_is_no_last_settlement_at_the_weekend() {
    let app = App::at("2025-06-14T17:00:00Z");
    let curve = fob_curve(&app.world());
    let one = format!("/v2/ongoing/last-settlement/{}/Jul%2025", curve.id);
    app.get(&one, &app.demo()).await.error(404);
}

#[tokio::test]
async fn assessments_fill_in_through_the_day() {
    let app = App::at("2025-06-13T09:00:00Z");
    let curve = fob_curve(&app.world());
    let uri = format!("/v2/ongoing/last-assessments/{}/Jul%2025", curve.id);
    let hm = |t: &str| Some(t.to_owned());
    let morning = app.ok(&uri, &app.demo()).await;
    assert_eq!(
        keys(&morning),
        ["londonSnapshot", "newYorkSnapshot", "singaporeSnapshot"]
    );
    assert_eq!(
        snapshot_times(&morning, "Jul 25", curve.units),
        [hm("08:30"), None, None]
    );
    app.controls().advance(8.0 * 3600.0).unwrap();
    let after_london = app.ok(&uri, &app.demo()).await;
    let times = snapshot_times(&after_london, "Jul 25", curve.units);
    assert_eq!(times, [hm("08:30"), hm("15:30"), None]);
    app.controls().advance(2.0 * 3600.0).unwrap();
    let evening = app.ok(&uri, &app.demo()).await;
    let times = snapshot_times(&evening, "Jul 25", curve.units);
    assert_eq!(times, [hm("08:30"), hm("15:30"), hm("18:30")]);
    // Every tenor's set carries its tenor.
    let all = format!("/v2/ongoing/last-assessments/{}", curve.id);
    let body = app.ok(&all, &app.demo()).await;
    for set in body["items"].as_array().unwrap() {
        let tenor = set["tenor"].as_str().unwrap();
        assert_eq!(
            keys(set),
            [
                "londonSnapshot",
                "newYorkSnapshot",
                "singaporeSnapshot",
                "tenor"
            ]
        );
        snapshot_times(set, tenor, curve.units);
    }
    let jul = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["tenor"] == "Jul 25");
    assert_eq!(jul.unwrap()["londonSnapshot"], evening["londonSnapshot"]);
}

#[tokio::test]
async fn todays_settlement_is_the_same_on_every_endpoint() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let token = app.demo();
    let last = app
        .ok(
            &format!("/v2/ongoing/last-settlement/{}/Dec%2025", curve.id),
            &token,
        )
        .await;
    let history_uri = format!(
        "/v2/historical/settlements/{}/Dec%2025?startDate=2025-06-13&endDate=2025-06-13",
        curve.id
    );
    let history = app.ok(&history_uri, &token).await;
    let assessments = app
        .ok(
            &format!("/v2/ongoing/last-assessments/{}/Dec%2025", curve.id),
            &token,
        )
        .await;
    assert_eq!(history[0]["value"], last);
    assert_eq!(assessments["londonSnapshot"], last);
}

#[tokio::test]
async fn ongoing_intraday_is_todays_values_as_historical_intraday_gives_them() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let token = app.demo();
    let ongoing_uri = format!("/v2/ongoing/intraday/{}/Jul%2025?pageSize=1000", curve.id);
    let ongoing = items_of(&app.pages(&ongoing_uri, &token).await);
    let historical_uri = format!(
        "/v2/historical/intraday/{}/Jul%2025?startDate=2025-06-13&endDate=2025-06-13&pageSize=1000",
        curve.id
    );
    let historical = items_of(&app.pages(&historical_uri, &token).await);
    assert!(!ongoing.is_empty());
    assert_eq!(ongoing, historical);
    let now = utc("2025-06-13 17:00");
    for value in &ongoing {
        let stamp = price_record(value, "Jul 25", curve.units);
        assert!(stamp.date() == now.date() && stamp <= now, "{stamp}");
    }
    // At the weekend the current day has none.
    app.controls().advance(24.0 * 3600.0).unwrap();
    let saturday = app.ok(&ongoing_uri, &app.demo()).await;
    assert_eq!(saturday["items"], serde_json::json!([]));
}

#[tokio::test]
async fn unknown_curves_are_404_and_bad_tenors_400_or_404() {
    let app = App::new();
    let token = app.demo();
    for uri in [
        format!("/v2/ongoing/last-settlement/{UNKNOWN_CURVE}/Jul%2025"),
        format!("/v2/ongoing/last-settlement/{UNKNOWN_CURVE}"),
        format!("/v2/ongoing/last-assessments/{UNKNOWN_CURVE}/Jul%2025"),
        format!("/v2/ongoing/last-assessments/{UNKNOWN_CURVE}"),
        format!("/v2/ongoing/intraday/{UNKNOWN_CURVE}/Jul%2025"),
    ] {
        app.get(&uri, &token).await.error(404);
    }
    let fob = fob_curve(&app.world());
    let plain = curve_where(&app.world(), |c| {
        c.quotation != "Sales" && !c.profile.continuous
    });
    for kind in ["last-settlement", "last-assessments", "intraday"] {
        let bad = format!("/v2/ongoing/{kind}/{}/Q5%2025", fob.id);
        app.get(&bad, &token).await.error(400);
        let not_offered = format!("/v2/ongoing/{kind}/{}/C%2000", plain.id);
        app.get(&not_offered, &token).await.error(404);
    }
}
