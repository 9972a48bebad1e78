use crate::live::LIVE_PATH;
use crate::routes::tests::{send, stopped_at};

#[tokio::test]
async fn every_rest_request_is_counted_and_the_live_upgrade_is_not() {
    let emulator = stopped_at("2025-06-13T10:00:00Z").await;
    let controls = emulator.controls();
    let login = controls.credentials();
    let login = format!(
        r#"{{"email":"{}","password":"{}"}}"#,
        login.email, login.password
    );
    let json = [("Content-Type", "application/json")];
    let logged_in = send(&emulator, "POST", "/v2/authenticate", &json, &login).await;
    assert_eq!(logged_in.status, 200);
    assert_eq!(
        send(&emulator, "GET", "/v2/catalogue", &[], "")
            .await
            .status,
        401
    );
    controls
        .fail_next(1, 503, Some("/historical"), None)
        .unwrap();
    let settlements = "/v2/historical/settlements/a/Jul%2025";
    assert_eq!(
        send(&emulator, "GET", settlements, &[], "").await.status,
        503
    );
    controls.reset_next(1, Some("/catalogue")).unwrap();
    send(&emulator, "GET", "/v2/catalogue", &[], "").await;
    assert_eq!(
        send(&emulator, "GET", "/v2/nowhere", &[], "").await.status,
        404
    );
    send(&emulator, "GET", "/files/job/f.parquet", &[], "").await;
    assert_eq!(send(&emulator, "GET", LIVE_PATH, &[], "").await.status, 400);

    assert_eq!(controls.request_count(None), 6);
    assert_eq!(controls.request_count(Some("/authenticate")), 1);
    assert_eq!(controls.request_count(Some("/catalogue")), 2);
    assert_eq!(controls.request_count(Some("/v2/catalogue")), 2);
    assert_eq!(controls.request_count(Some("/historical/settlements")), 1);
    assert_eq!(controls.request_count(Some("/files")), 1);
    assert_eq!(controls.request_count(Some("/customer/socket")), 0);
}
