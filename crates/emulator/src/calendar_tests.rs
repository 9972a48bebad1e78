use super::*;

fn at(text: &str) -> Micros {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .timestamp_micros()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[test]
fn london_settlement_follows_summer_time() {
    let cal = Calendar::new(EarlyClose::ChristmasAndNewYearsEve);
    assert_eq!(
        cal.settlement_time(day(2025, 6, 13)),
        Some(at("2025-06-13T15:30:00Z"))
    );
    assert_eq!(
        cal.settlement_time(day(2025, 1, 13)),
        Some(at("2025-01-13T16:30:00Z"))
    );
    assert_eq!(cal.settlement_time(day(2025, 6, 14)), None, "a Saturday");
}

#[test]
fn early_close_days_settle_at_half_past_twelve() {
    let cal = Calendar::new(EarlyClose::ChristmasAndNewYearsEve);
    assert_eq!(
        cal.settlement_time(day(2025, 12, 24)),
        Some(at("2025-12-24T12:30:00Z"))
    );
    let custom = Calendar::new(EarlyClose::Days([day(2025, 6, 13)].into()));
    assert_eq!(
        custom.settlement_time(day(2025, 6, 13)),
        Some(at("2025-06-13T11:30:00Z"))
    );
    assert_eq!(
        custom.settlement_time(day(2025, 12, 24)),
        Some(at("2025-12-24T16:30:00Z"))
    );
}

#[test]
fn assessments_in_their_own_time_zones() {
    let cal = Calendar::new(EarlyClose::ChristmasAndNewYearsEve);
    let d = day(2025, 6, 13);
    assert_eq!(
        cal.assessment_time(d, Snapshot::Singapore),
        Some(at("2025-06-13T08:30:00Z"))
    );
    assert_eq!(
        cal.assessment_time(d, Snapshot::NewYork),
        Some(at("2025-06-13T18:30:00Z"))
    );
    let winter = day(2025, 12, 24);
    assert_eq!(
        cal.assessment_time(winter, Snapshot::NewYork),
        Some(at("2025-12-24T18:30:00Z"))
    );
}

#[test]
fn contracts_refresh_on_weekdays_at_half_past_two() {
    let cal = Calendar::new(EarlyClose::ChristmasAndNewYearsEve);
    assert_eq!(
        cal.contract_refresh_day(at("2025-06-16T02:29:00Z")),
        day(2025, 6, 13)
    );
    assert_eq!(
        cal.contract_refresh_day(at("2025-06-16T02:30:00Z")),
        day(2025, 6, 16)
    );
    assert_eq!(
        cal.contract_refresh_day(at("2025-06-15T12:00:00Z")),
        day(2025, 6, 13)
    );
}
