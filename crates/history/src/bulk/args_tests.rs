use super::*;

fn message(result: Result<impl std::fmt::Debug, ClientError>) -> String {
    match result.unwrap_err() {
        ClientError::InvalidRequest(invalid) => invalid.to_string(),
        other => panic!("not an InvalidRequest: {other:?}"),
    }
}

#[test]
fn months_are_yyyy_mm_and_in_order() {
    let (first, last) = month_range(" 2025-01", "2025-03 ").unwrap();
    assert_eq!(
        (first.to_string(), last.to_string()),
        ("2025-01".into(), "2025-03".into())
    );
    assert_eq!(month_range("2025-02", "2025-02").unwrap().0, first.next());
    for (start, end, named) in [
        ("2025-1", "2025-02", "start must be a month as YYYY-MM"),
        ("2025-13", "2025-02", "start must be"),
        ("", "2025-02", "start must be"),
        ("2025-01", "25-02", "end must be"),
        ("2025-01", "2025-01-31", "end must be"),
        ("2025-03", "2025-02", "start 2025-03 is after end 2025-02"),
    ] {
        let text = message(month_range(start, end));
        assert!(text.starts_with(named), "{start} {end}: {text}");
    }
}
