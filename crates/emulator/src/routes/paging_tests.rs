//! The page envelope: absolute `self`, `next`, `prev` and `last` links on
//! the request's host that walk to the end, and the bounds of `page` and
//! `pageSize`, on the catalogue and the intraday endpoints.

use serde_json::Value;

use crate::routes::test_app::{curve_where, items_of, page_of, param, query_of, App, HOST_NAME};
use crate::world::curves::Curve;

/// Checks a page's envelope: its keys, and links under `http://HOST/path?`
/// carrying one `page` and one `pageSize`, with `next` and `prev` null or not.
fn check_envelope(body: &Value, path: &str) {
    let mut keys: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["items", "last", "next", "prev", "self"]);
    assert!(body["items"].is_array());
    let prefix = format!("http://{HOST_NAME}{path}?");
    for key in ["self", "next", "prev", "last"] {
        let Some(link) = body[key].as_str() else {
            assert!(key == "next" || key == "prev", "{key} is null");
            continue;
        };
        assert!(link.starts_with(&prefix), "{key}: {link}");
        for name in ["page", "pageSize"] {
            let value: usize = param(link, name).parse().expect("a number");
            assert!(value >= 1, "{link}");
        }
    }
}

#[tokio::test]
async fn the_first_catalogue_page_has_the_default_size_and_absolute_links() {
    let app = App::new();
    let body = app.ok("/v2/catalogue", &app.demo()).await;
    check_envelope(&body, "/v2/catalogue");
    assert_eq!(body["items"].as_array().unwrap().len(), 50);
    assert!(body["prev"].is_null());
    let pairs = |link: &Value| query_of(link.as_str().unwrap());
    let expect = |page: &str| {
        vec![
            ("page".into(), page.into()),
            ("pageSize".into(), "50".into()),
        ]
    };
    assert_eq!(pairs(&body["self"]), expect("1"));
    assert_eq!(pairs(&body["next"]), expect("2"));
    assert_eq!(pairs(&body["last"]), expect("5"));
}

#[tokio::test]
async fn following_next_visits_every_curve_once_and_ends_on_last() {
    let app = App::new();
    let pages = app.pages("/v2/catalogue", &app.demo()).await;
    let sizes: Vec<usize> = pages
        .iter()
        .map(|p| p["items"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [50, 50, 50, 50, 33]);
    for (number, page) in pages.iter().enumerate() {
        check_envelope(page, "/v2/catalogue");
        assert_eq!(page_of(&page["self"]), number + 1);
        assert_eq!(page["last"], pages[0]["last"]);
        if number > 0 {
            assert_eq!(page["prev"], pages[number - 1]["self"]);
        }
    }
    assert_eq!(pages[4]["self"], pages[0]["last"]);
    let mut ids: Vec<String> = items_of(&pages)
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 233);
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 233);
}

#[tokio::test]
async fn the_last_link_leads_to_the_last_page() {
    let app = App::new();
    let first = app.ok("/v2/catalogue?pageSize=100", &app.demo()).await;
    let last = app.ok(first["last"].as_str().unwrap(), &app.demo()).await;
    check_envelope(&last, "/v2/catalogue");
    assert_eq!(page_of(&last["self"]), 3);
    assert_eq!(last["items"].as_array().unwrap().len(), 33);
    assert!(last["next"].is_null());
    assert_eq!(page_of(&last["prev"]), 2);
    // Past the end: no items, no next, and prev leads back to the last page.
    let beyond = app
        .ok("/v2/catalogue?pageSize=100&page=7", &app.demo())
        .await;
    assert_eq!(beyond["items"], serde_json::json!([]));
    assert!(beyond["next"].is_null());
    assert_eq!(beyond["prev"], first["last"]);
}

#[tokio::test]
async fn links_carry_the_other_query_parameters() {
    let app = App::new();
    let uri = "/v2/catalogue?filter[vertical]=Crude&filter[region]=WAF&pageSize=3";
    let pages = app.pages(uri, &app.demo()).await;
    assert_eq!(pages.len(), 4);
    for page in &pages {
        check_envelope(page, "/v2/catalogue");
        for key in ["self", "next", "prev", "last"] {
            let Some(link) = page[key].as_str() else {
                continue;
            };
            assert_eq!(param(link, "filter[vertical]"), "Crude");
            assert_eq!(param(link, "filter[region]"), "WAF");
            assert_eq!(param(link, "pageSize"), "3");
        }
    }
    assert_eq!(items_of(&pages).len(), 11);
}

#[tokio::test]
async fn catalogue_page_sizes_are_one_to_five_hundred() {
    let app = App::new();
    for (size, pages) in [(1, 233), (500, 1)] {
        let body = app
            .ok(&format!("/v2/catalogue?pageSize={size}"), &app.demo())
            .await;
        assert_eq!(body["items"].as_array().unwrap().len(), size.min(233));
        assert_eq!(page_of(&body["last"]), pages);
    }
    for query in [
        "pageSize=0",
        "pageSize=-1",
        "pageSize=501",
        "pageSize=x",
        "pageSize=",
        "pageSize=2.5",
        "page=0",
        "page=-1",
        "page=x",
    ] {
        let reply = app
            .get(&format!("/v2/catalogue?{query}"), &app.demo())
            .await;
        let message = reply.error(400);
        let name = query.split('=').next().unwrap();
        assert!(
            message.starts_with(&format!("{name} must be an integer from 1 to ")),
            "{message}"
        );
    }
}

/// A curve in the demo licence with a value every minute or two.
fn fine(app: &App) -> Curve {
    curve_where(&app.world(), |c| {
        c.quotation != "Sales" && c.profile.granularity_minutes <= 2
    })
}

#[tokio::test]
async fn intraday_pages_walk_every_value_once_oldest_first() {
    let app = App::new();
    let curve = fine(&app);
    let path = format!("/v2/historical/intraday/{}/Jul%2025", curve.id);
    let uri = format!("{path}?startDate=2025-06-12&endDate=2025-06-12&pageSize=150");
    let pages = app.pages(&uri, &app.demo()).await;
    let per_day = 1440 / curve.profile.granularity_minutes as usize;
    assert_eq!(pages.len(), per_day.div_ceil(150));
    for (number, page) in pages.iter().enumerate() {
        check_envelope(page, &path);
        assert_eq!(page_of(&page["self"]), number + 1);
        assert_eq!(page["last"], pages[0]["last"]);
        let link = page["self"].as_str().unwrap();
        assert_eq!(param(link, "startDate"), "2025-06-12");
        assert_eq!(param(link, "endDate"), "2025-06-12");
    }
    let stamps: Vec<String> = items_of(&pages)
        .iter()
        .map(|v| v["generatedOn"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(stamps.len(), per_day);
    assert!(
        stamps.windows(2).all(|w| w[0] < w[1]),
        "oldest first, once each"
    );
    assert!(stamps.iter().all(|s| s.starts_with("2025-06-12T")));
}

#[tokio::test]
async fn intraday_pages_are_100_by_default_and_at_most_1000() {
    let app = App::new();
    let curve = fine(&app);
    let token = app.demo();
    for path in [
        format!(
            "/v2/historical/intraday/{}/Jul%2025?startDate=2025-06-09&endDate=2025-06-13",
            curve.id
        ),
        format!("/v2/ongoing/intraday/{}/Jul%2025?", curve.id),
    ] {
        let body = app.ok(&path, &token).await;
        assert_eq!(body["items"].as_array().unwrap().len(), 100);
        assert_eq!(param(body["self"].as_str().unwrap(), "pageSize"), "100");
        assert_eq!(page_of(&body["next"]), 2);
        let most = app.ok(&format!("{path}&pageSize=1000"), &token).await;
        let size = most["items"].as_array().unwrap().len();
        assert!(size > 100, "{size}");
        assert!(size == 1000 || most["next"].is_null(), "{size}");
        let message = app
            .get(&format!("{path}&pageSize=1001"), &token)
            .await
            .error(400);
        assert_eq!(
            message,
            "pageSize must be an integer from 1 to 1000, not \"1001\""
        );
        app.get(&format!("{path}&page=0"), &token).await.error(400);
    }
}
