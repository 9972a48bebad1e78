use super::super::tests::controls;

#[test]
fn requests_are_counted_by_prefix_with_or_without_the_version() {
    let controls = controls();
    let requests = &controls.state.requests;
    assert_eq!(controls.request_count(None), 0);
    for path in [
        "/v2/authenticate",
        "/v2/catalogue",
        "/v2/historical/settlements/a/Jul%2025",
        "/v2/historical/settlements/a/Aug%2025",
        "/v2/historical/settlements/a/Jul%2025",
        "/v2/historical/intraday/a/Jul%2025",
        "/files/job/file.parquet",
    ] {
        requests.record(path);
    }
    assert_eq!(controls.request_count(None), 7);
    assert_eq!(controls.request_count(Some("/historical/settlements")), 3);
    assert_eq!(
        controls.request_count(Some("/v2/historical/settlements")),
        3
    );
    assert_eq!(
        controls.request_count(Some("/historical/settlements/a/Jul%2025")),
        2
    );
    assert_eq!(controls.request_count(Some("/historical")), 4);
    assert_eq!(controls.request_count(Some("/authenticate")), 1);
    assert_eq!(controls.request_count(Some("/files")), 1);
    assert_eq!(controls.request_count(Some("/v2/files")), 0);
    assert_eq!(controls.request_count(Some("/ongoing")), 0);
}

#[test]
fn clearing_faults_leaves_the_count() {
    let controls = controls();
    controls.state.requests.record("/v2/catalogue");
    controls.clear_faults();
    assert_eq!(controls.request_count(Some("/catalogue")), 1);
}

#[test]
fn the_peak_of_requests_in_flight_is_kept_until_reset() {
    let controls = controls();
    let requests = &controls.state.requests;
    assert_eq!(controls.peak_in_flight(false), 0);
    let first = requests.enter();
    let second = requests.enter();
    drop(first);
    let third = requests.enter();
    assert_eq!(controls.peak_in_flight(false), 2);
    drop(second);
    // Reset: the count starts again from the one still in progress.
    assert_eq!(controls.peak_in_flight(true), 2);
    assert_eq!(controls.peak_in_flight(false), 1);
    drop(third);
    assert_eq!(controls.peak_in_flight(false), 1);
}
