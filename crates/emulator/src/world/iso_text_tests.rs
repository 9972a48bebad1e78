use super::*;

#[test]
fn dates_are_written_as_chrono_writes_them() {
    for (y, m, d) in [(2000, 1, 1), (2025, 6, 13), (2099, 12, 31), (987, 3, 4)] {
        let date = NaiveDate::from_ymd_opt(y, m, d).unwrap();
        let mut text = String::new();
        push_date(&mut text, date);
        assert_eq!(text, date.format("%Y-%m-%d").to_string());
    }
}

#[test]
fn timestamps_carry_as_many_fraction_digits_as_asked() {
    let time = DateTime::from_timestamp_micros(1_735_787_045_123_456).unwrap();
    let text = |digits| {
        let mut text = String::new();
        push_timestamp(&mut text, time, digits);
        text
    };
    assert_eq!(text(0), "2025-01-02T03:04:05");
    assert_eq!(text(1), "2025-01-02T03:04:05.1");
    assert_eq!(text(3), "2025-01-02T03:04:05.123");
    assert_eq!(text(6), "2025-01-02T03:04:05.123456");
    let midnight = DateTime::from_timestamp_micros(1_735_776_000_000_007).unwrap();
    let mut text = String::new();
    push_timestamp(&mut text, midnight, 6);
    assert_eq!(text, "2025-01-02T00:00:00.000007");
}
