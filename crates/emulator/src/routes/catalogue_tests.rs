//! `GET /v2/catalogue`: the curve quotations of the interface and their
//! filters (paging is in `paging_tests.rs`).

use serde_json::Value;

use crate::routes::test_app::{items_of, page_of, App};
use domain::tenor::{Tenor, TenorKind};
use domain::vocabulary::VERTICALS;

/// Every curve the catalogue lists for `query` (`&`-joined, may be empty).
async fn listed(app: &App, query: &str) -> Vec<Value> {
    let uri = format!("/v2/catalogue?pageSize=500&{query}");
    items_of(&app.pages(&uri, &app.demo()).await)
}

fn ids(items: &[Value]) -> Vec<&str> {
    items.iter().map(|i| i["id"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn every_curve_has_the_fields_of_the_interface() {
    let app = App::new();
    let items = listed(&app, "").await;
    assert_eq!(items.len(), 233);
    let world = app.world();
    assert_eq!(
        ids(&items),
        world
            .curves
            .iter()
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>()
    );
    let mut kinds = std::collections::BTreeSet::new();
    for item in &items {
        let mut keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        keys.sort_unstable();
        let expected = [
            "contracts",
            "filters",
            "id",
            "name",
            "properties",
            "quotation",
            "units",
        ];
        assert_eq!(keys, expected);
        let id = item["id"].as_str().unwrap();
        assert_eq!(id.len(), 36, "{id}");
        assert_eq!(id.matches('-').count(), 4, "{id}");
        let filters = &item["filters"];
        assert_eq!(filters["quotation"], item["quotation"]);
        let vertical = VERTICALS
            .iter()
            .find(|v| filters["vertical"] == v.name)
            .expect("a vertical of the interface");
        assert!(vertical.quotations.iter().any(|q| item["quotation"] == *q));
        assert!(vertical.regions.iter().any(|r| filters["region"] == *r));
        assert!(["$/mt", "$/bbl", "c/gal"]
            .iter()
            .any(|u| item["units"] == *u));
        let contracts = item["contracts"].as_array().unwrap();
        assert!(!contracts.is_empty());
        for name in contracts {
            let tenor = Tenor::parse(name.as_str().unwrap()).expect("a tenor of the interface");
            kinds.insert(format!("{:?}", tenor.kind()));
        }
        // Every curve lists the current month.
        assert!(contracts.iter().any(|c| c == "Jun 25"), "{contracts:?}");
    }
    let every: Vec<String> = [
        TenorKind::Continuous,
        TenorKind::Month,
        TenorKind::Quarter,
        TenorKind::Window,
    ]
    .iter()
    .map(|k| format!("{k:?}"))
    .collect();
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), every);
}

#[tokio::test]
async fn the_vertical_filter_keeps_its_vertical_in_any_spelling() {
    let app = App::new();
    let all = listed(&app, "").await;
    for vertical in &VERTICALS {
        let expected: Vec<&str> = ids(&all)
            .into_iter()
            .zip(&all)
            .filter(|(_, c)| c["filters"]["vertical"] == vertical.name)
            .map(|(id, _)| id)
            .collect();
        assert!(!expected.is_empty());
        for spelling in [
            vertical.name.to_owned(),
            vertical.name.to_lowercase(),
            vertical.bulk_name.to_owned(),
        ] {
            let query = format!("filter[vertical]={}", spelling.replace(' ', "%20"));
            assert_eq!(ids(&listed(&app, &query).await), expected, "{spelling}");
        }
    }
}

#[tokio::test]
async fn filters_combine_and_ignore_case() {
    let app = App::new();
    let jet_fob = listed(&app, "filter[vertical]=Jet&filter[quotation]=fob").await;
    let regions: Vec<&str> = jet_fob
        .iter()
        .map(|c| c["filters"]["region"].as_str().unwrap())
        .collect();
    let mut jet_regions = VERTICALS[2].regions.to_vec();
    assert_eq!(VERTICALS[2].name, "Jet");
    jet_regions.sort_unstable();
    let mut sorted = regions.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, jet_regions);
    assert!(jet_fob.iter().all(|c| c["quotation"] == "Fob"));
    let waf = listed(&app, "filter[region]=waf").await;
    assert!(!waf.is_empty());
    assert!(waf.iter().all(|c| c["filters"]["region"] == "WAF"));
}

#[tokio::test]
async fn a_filter_no_curve_matches_gives_one_empty_page() {
    let app = App::new();
    for query in [
        // A quotation the vertical does not have is a valid value.
        "filter[vertical]=Fuel%20Oil&filter[quotation]=Fob",
        // A custom filter takes any value.
        "filter[grade]=no%20such%20grade",
    ] {
        let body = app.ok(&format!("/v2/catalogue?{query}"), &app.demo()).await;
        assert_eq!(body["items"], serde_json::json!([]));
        assert!(body["next"].is_null() && body["prev"].is_null());
        assert_eq!(page_of(&body["last"]), 1);
        assert_eq!(body["self"], body["last"]);
    }
}

#[tokio::test]
async fn custom_filters_filter_on_their_key() {
    let app = App::new();
    let all = listed(&app, "").await;
    let graded = all
        .iter()
        .find(|c| c["filters"].get("grade").is_some())
        .expect("a curve with a grade");
    let grade = graded["filters"]["grade"].as_str().unwrap();
    let query = format!("filter[grade]={}", grade.replace(' ', "%20"));
    let items = listed(&app, &query).await;
    assert!(items.iter().any(|c| c["id"] == graded["id"]));
    assert!(items.iter().all(|c| c["filters"]["grade"] == grade));
    let expected = all
        .iter()
        .filter(|c| c["filters"]["grade"] == grade)
        .count();
    assert_eq!(items.len(), expected);
}

#[tokio::test]
async fn an_unknown_vertical_quotation_or_region_is_400_naming_it() {
    let app = App::new();
    for (query, named) in [
        ("filter[vertical]=Coal", "filter[vertical]"),
        ("filter[quotation]=Spot", "filter[quotation]"),
        ("filter[region]=Mars", "filter[region]"),
        ("filter[]=x", "filter[]"),
    ] {
        let reply = app
            .get(&format!("/v2/catalogue?{query}"), &app.demo())
            .await;
        let message = reply.error(400);
        assert!(message.contains(named), "{query}: {message}");
    }
}

#[tokio::test]
async fn contracts_refresh_at_half_past_two_utc_on_a_weekday() {
    // Tuesday 1 July 2025: June stays listed until 02:30 UTC.
    let app = App::at("2025-07-01T02:29:59Z");
    let lists_june = |items: &[Value]| {
        items
            .iter()
            .filter(|c| {
                c["contracts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|t| t == "Jun 25")
            })
            .count()
    };
    assert_eq!(lists_june(&listed(&app, "").await), 233);
    app.controls().advance(1.0).unwrap();
    let after = listed(&app, "").await;
    assert_eq!(lists_june(&after), 0);
    let first = after[0]["contracts"].as_array().unwrap();
    assert!(first.iter().any(|t| t == "Jul 25"));
}
