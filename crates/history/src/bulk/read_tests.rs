use super::*;

#[test]
fn a_selection_is_checked_and_names_the_vertical_as_the_interface_does() {
    let selection = Selection::new(Some("fuel_oil"), Some("2025-01"), None, true).unwrap();
    assert_eq!(selection.vertical.as_deref(), Some("Fuel Oil"));
    assert_eq!(selection.start, Month::parse("2025-01"));
    for (vertical, start, end, named) in [
        (Some("Coal"), None, None, "vertical \"Coal\" is not one of"),
        (None, Some("2025-13"), None, "start must be a month"),
        (None, None, Some("2025"), "end must be a month"),
        (
            None,
            Some("2025-03"),
            Some("2025-02"),
            "start 2025-03 is after end",
        ),
    ] {
        let error = Selection::new(vertical, start, end, false).unwrap_err();
        assert!(error.to_string().starts_with(named), "{error}");
    }
}

#[tokio::test]
async fn reading_a_folder_that_is_not_there_is_refused() {
    let missing = std::env::temp_dir().join("marketcurves-bulk-no-such-folder");
    let error = read_bulk(missing, Selection::default()).await.unwrap_err();
    assert!(
        matches!(&error, ClientError::InvalidRequest(m) if m.words.ends_with("is not a folder")),
        "{error:?}"
    );
}
