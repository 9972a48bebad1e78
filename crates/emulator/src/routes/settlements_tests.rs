//! `GET /v2/historical/settlements/<curve_id>/<tenor>`: one London
//! snapshot per business day, newest first, within the dates asked and up
//! to the clock; bad dates, curves and tenors.

use serde_json::Value;

use crate::routes::test_app::{
    curve_where, fob_curve, keys, price_record, utc, App, UNKNOWN_CURVE,
};
use crate::world::curves::Curve;

async fn settlements(app: &App, curve: &Curve, tenor: &str, start: &str, end: &str) -> Vec<Value> {
    let uri = format!(
        "/v2/historical/settlements/{}/{tenor}?startDate={start}&endDate={end}",
        curve.id
    );
    let body = app.ok(&uri, &app.demo()).await;
    body.as_array().expect("an array").clone()
}

fn dates(entries: &[Value]) -> Vec<&str> {
    entries
        .iter()
        .map(|e| e["date"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn one_entry_per_business_day_newest_first_at_the_london_snapshot() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let entries = settlements(&app, &curve, "Dec%2025", "2025-06-02", "2025-06-13").await;
    assert_eq!(
        dates(&entries),
        [
            "2025-06-13",
            "2025-06-12",
            "2025-06-11",
            "2025-06-10",
            "2025-06-09",
            "2025-06-06",
            "2025-06-05",
            "2025-06-04",
            "2025-06-03",
            "2025-06-02"
        ]
    );
    for entry in &entries {
        assert_eq!(keys(entry), ["date", "value"]);
        let date = entry["date"].as_str().unwrap();
        // 16:30 London is 15:30 UTC in summer time.
        let stamp = price_record(&entry["value"], "Dec 25", curve.units);
        assert_eq!(stamp, utc(&format!("{date} 15:30")));
    }
}

#[tokio::test]
async fn the_window_is_cut_to_the_clock_and_weekends_are_empty() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let after = settlements(&app, &curve, "Dec%2025", "2025-06-12", "2025-06-30").await;
    assert_eq!(dates(&after), ["2025-06-13", "2025-06-12"]);
    let future = settlements(&app, &curve, "Dec%2025", "2025-06-14", "2025-06-30").await;
    assert!(future.is_empty());
    let weekend = settlements(&app, &curve, "Dec%2025", "2025-06-07", "2025-06-08").await;
    assert!(weekend.is_empty());
    let one = settlements(&app, &curve, "C%2000", "2025-06-11", "2025-06-11").await;
    assert_eq!(dates(&one), ["2025-06-11"]);
    price_record(&one[0]["value"], "C 00", curve.units);
}

#[tokio::test]
async fn the_snapshot_follows_london_time_and_early_closes() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let spring = settlements(&app, &curve, "Dec%2025", "2025-03-27", "2025-04-01").await;
    let times: Vec<String> = spring
        .iter()
        .map(|e| {
            price_record(&e["value"], "Dec 25", curve.units)
                .format("%F %R")
                .to_string()
        })
        .collect();
    // London moves to summer time on 30 March.
    assert_eq!(
        times,
        [
            "2025-04-01 15:30",
            "2025-03-31 15:30",
            "2025-03-28 16:30",
            "2025-03-27 16:30"
        ]
    );
    // 24 December closes early: 12:30 London.
    let christmas = settlements(&app, &curve, "Jul%2025", "2024-12-23", "2024-12-24").await;
    let times: Vec<String> = christmas
        .iter()
        .map(|e| {
            price_record(&e["value"], "Jul 25", curve.units)
                .format("%F %R")
                .to_string()
        })
        .collect();
    assert_eq!(times, ["2024-12-24 12:30", "2024-12-23 16:30"]);
}

#[tokio::test]
async fn todays_settlement_is_listed_once_published() {
    // Taken at 15:30 UTC, published 5 to 14 minutes later.
    let app = App::at("2025-06-13T15:34:59Z");
    let curve = fob_curve(&app.world());
    let newest = |entries: Vec<Value>| entries[0]["date"].as_str().unwrap().to_owned();
    let before = settlements(&app, &curve, "Dec%2025", "2025-06-10", "2025-06-13").await;
    assert_eq!(newest(before), "2025-06-12");
    app.controls().advance(9.0 * 60.0 + 1.0).unwrap();
    let after = settlements(&app, &curve, "Dec%2025", "2025-06-10", "2025-06-13").await;
    assert_eq!(newest(after), "2025-06-13");
}

#[tokio::test]
async fn bad_dates_are_400_naming_the_parameter() {
    let app = App::new();
    let curve = fob_curve(&app.world());
    let path = format!("/v2/historical/settlements/{}/Dec%2025", curve.id);
    for (query, named) in [
        ("", "startDate is required"),
        ("startDate=2025-06-01", "endDate is required"),
        ("endDate=2025-06-13", "startDate is required"),
        ("startDate=&endDate=2025-06-13", "startDate must be a date"),
        (
            "startDate=2025/06/01&endDate=2025-06-13",
            "startDate must be a date",
        ),
        (
            "startDate=2025-02-30&endDate=2025-06-13",
            "startDate must be a date",
        ),
        (
            "startDate=2025-06-01&endDate=13-06-2025",
            "endDate must be a date",
        ),
        (
            "startDate=2025-06-01&endDate=2025-06-13T00:00:00",
            "endDate must be a date",
        ),
        (
            "startDate=2025-06&endDate=2025-06-13",
            "startDate must be a date",
        ),
        (
            "startDate=2025-06-13&endDate=2025-06-12",
            "endDate 2025-06-12 is before startDate",
        ),
    ] {
        let message = app
            .get(&format!("{path}?{query}"), &app.demo())
            .await
            .error(400);
        assert!(message.starts_with(named), "{query}: {message}");
    }
}

#[tokio::test]
async fn unknown_curves_are_404_and_bad_tenors_400_or_404() {
    let app = App::new();
    let query = "startDate=2025-06-01&endDate=2025-06-13";
    let token = app.demo();
    for curve in [UNKNOWN_CURVE, "not-a-curve"] {
        let uri = format!("/v2/historical/settlements/{curve}/Dec%2025?{query}");
        let message = app.get(&uri, &token).await.error(404);
        assert_eq!(message, format!("unknown curve id {curve:?}"));
    }
    let fob = fob_curve(&app.world());
    for tenor in ["Q5%2025", "Q0%2025", "3-7%20Jul%2025", "26-30%20Jul%2025"] {
        let uri = format!("/v2/historical/settlements/{}/{tenor}?{query}", fob.id);
        app.get(&uri, &token).await.error(400);
    }
    // A shape of tenor the curve does not offer at all.
    let plain = curve_where(&app.world(), |c| {
        c.quotation != "Sales" && !c.profile.continuous
    });
    let uri = format!("/v2/historical/settlements/{}/C%2000?{query}", plain.id);
    let message = app.get(&uri, &token).await.error(404);
    assert_eq!(message, format!("curve {} has no tenor \"C 00\"", plain.id));
}
