use super::*;
use crate::calendar::{Calendar, EarlyClose};

fn key(vertical: &'static str, month: &str, denied: &[&str]) -> FileKey {
    FileKey {
        vertical,
        month: Month::parse(month).unwrap(),
        denied: denied.iter().map(|q| q.to_string()).collect(),
        curves: usize::MAX,
    }
}

#[test]
fn records_are_weekday_snapshots_of_the_vertical_within_the_licence() {
    let world = World::new(0, Calendar::new(EarlyClose::ChristmasAndNewYearsEve));
    let key = key("FUEL_OIL", "2025-05", &["Sales"]);
    let saturday = NaiveDate::from_ymd_opt(2025, 5, 3).unwrap();
    assert_eq!(day_records(&world, &key, saturday).count(), 0);
    let friday = NaiveDate::from_ymd_opt(2025, 5, 2).unwrap();
    let records: Vec<_> = day_records(&world, &key, friday).collect();
    assert!(!records.is_empty());
    for record in &records {
        assert_eq!(record.curve.vertical.name, "Fuel Oil");
        assert_ne!(record.curve.quotation, "Sales");
        assert_eq!(
            Some(record.stamp.at),
            world.calendar.settlement_time(friday)
        );
    }
    let ids: BTreeSet<String> = records.iter().map(SnapshotRecord::id).collect();
    assert_eq!(ids.len(), records.len(), "ids are unique");
    let with_sales = self::key("FUEL_OIL", "2025-05", &[]);
    assert!(count_rows(&world, &with_sales) > count_rows(&world, &key));
}

#[test]
fn months_before_history_are_empty() {
    let world = World::new(0, Calendar::new(EarlyClose::ChristmasAndNewYearsEve));
    assert_eq!(count_rows(&world, &key("JET", "1999-12", &[])), 0);
    assert!(count_rows(&world, &key("JET", "2000-01", &[])) > 0);
}
