use chrono::NaiveDate;

use super::{expired_tenors, Skipped, SKIPPED_TENORS};
use domain::arrow::{schema, Table, TableKind};
use domain::tenor::Tenor;
use places::ClientError;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn tenors(names: &[&str]) -> Vec<Tenor> {
    names.iter().map(|n| Tenor::parse(n).unwrap()).collect()
}

#[test]
fn expired_are_the_kinds_listed_minus_those_listed() {
    let listed = tenors(&["C 00", "Jun 25", "Jul 25", "Q3 25"]);
    let names: Vec<String> = expired_tenors(&listed, d(2025, 3, 10), d(2025, 6, 30))
        .into_iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["Q1 25", "Mar 25", "Apr 25", "Q2 25", "May 25"]);
}

#[test]
fn only_not_found_is_skipped_and_marked() {
    let skipped = Skipped::default();
    let jan = Tenor::parse("Jan 24").unwrap();
    let not_found = ClientError::NotFound {
        endpoint: "GET /x".into(),
        message: "no".into(),
    };
    assert!(skipped.skip(&jan, &not_found));
    assert!(!skipped.skip(&jan, &ClientError::ClientClosed));
    let table = Table {
        schema: schema(TableKind::Settlements),
        batches: Vec::new(),
    };
    let marked = skipped.mark("c", table);
    assert_eq!(
        marked
            .schema
            .metadata()
            .get(SKIPPED_TENORS)
            .map(String::as_str),
        Some("[\"Jan 24\"]")
    );
}
