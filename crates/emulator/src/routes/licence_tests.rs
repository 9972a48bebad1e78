//! Licences on the data endpoints: a curve whose quotation is outside the
//! caller's licence is 403 on every endpoint; revoked and restored by the
//! controls, account by account.

use crate::accounts::FULL_EMAIL;
use crate::routes::test_app::{curve_where, App};

/// Every data endpoint of one curve, tenor `Jul 25`.
fn endpoints(curve: &str) -> Vec<String> {
    vec![
        format!(
            "/v2/historical/settlements/{curve}/Jul%2025?startDate=2025-06-09&endDate=2025-06-13"
        ),
        format!("/v2/historical/intraday/{curve}/Jul%2025?startDate=2025-06-12&endDate=2025-06-12"),
        format!("/v2/ongoing/last-settlement/{curve}/Jul%2025"),
        format!("/v2/ongoing/last-settlement/{curve}"),
        format!("/v2/ongoing/last-assessments/{curve}/Jul%2025"),
        format!("/v2/ongoing/last-assessments/{curve}"),
        format!("/v2/ongoing/intraday/{curve}/Jul%2025"),
    ]
}

async fn statuses(app: &App, curve: &str, token: &str) -> Vec<u16> {
    let mut statuses = Vec::new();
    for uri in endpoints(curve) {
        statuses.push(app.get(&uri, token).await.status.as_u16());
    }
    statuses
}

async fn assert_forbidden(app: &App, curve: &str, token: &str, quotation: &str) {
    for uri in endpoints(curve) {
        let message = app.get(&uri, token).await.error(403);
        assert_eq!(
            message,
            format!("quotation {quotation:?} is not in your licence")
        );
    }
}

fn id_of(app: &App, quotation: &str) -> String {
    curve_where(&app.world(), |c| c.quotation == quotation).id
}

#[tokio::test]
async fn the_demo_account_is_refused_sales_and_the_full_account_is_not() {
    let app = App::new();
    let sales = id_of(&app, "Sales");
    assert_forbidden(&app, &sales, &app.demo(), "Sales").await;
    assert_eq!(statuses(&app, &sales, &app.full()).await, [200; 7]);
    assert_eq!(
        statuses(&app, &id_of(&app, "Fob"), &app.demo()).await,
        [200; 7]
    );
    // The catalogue lists every curve, licensed or not.
    let listed = app
        .ok("/v2/catalogue?filter[quotation]=Sales", &app.demo())
        .await;
    assert_eq!(listed["items"].as_array().unwrap().len(), 30);
}

#[tokio::test]
async fn revoking_one_quotation_refuses_only_it_and_only_to_that_account() {
    let app = App::new();
    let (fob, price) = (id_of(&app, "Fob"), id_of(&app, "Price"));
    app.controls().revoke_licence(None, Some("Fob")).unwrap();
    assert_forbidden(&app, &fob, &app.demo(), "Fob").await;
    assert_eq!(statuses(&app, &price, &app.demo()).await, [200; 7]);
    assert_eq!(statuses(&app, &fob, &app.full()).await, [200; 7]);
    app.controls().restore_licence(None).unwrap();
    assert_eq!(statuses(&app, &fob, &app.demo()).await, [200; 7]);
    // Restored is everything, Sales included.
    assert_eq!(
        statuses(&app, &id_of(&app, "Sales"), &app.demo()).await,
        [200; 7]
    );
}

#[tokio::test]
async fn a_revoked_licence_refuses_every_quotation() {
    let app = App::new();
    app.controls()
        .revoke_licence(Some(FULL_EMAIL), None)
        .unwrap();
    let full = app.full();
    for quotation in ["Fob", "Price", "Sales", "Blend"] {
        assert_forbidden(&app, &id_of(&app, quotation), &full, quotation).await;
    }
    assert_eq!(
        statuses(&app, &id_of(&app, "Fob"), &app.demo()).await,
        [200; 7]
    );
}
