use super::*;

#[test]
fn parses_only_the_exact_shape() {
    let march = Month::parse("2024-03").unwrap();
    assert_eq!((march.year(), march.month()), (2024, 3));
    assert_eq!(march.to_string(), "2024-03");
    for bad in [
        "2024-3",
        "2024-13",
        "2024-00",
        "24-03",
        "2024/03",
        "2024-03-01",
        "",
        "abcd-ef",
        "2024-0a",
        "+024-03",
        "２０２４-03",
    ] {
        assert_eq!(Month::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn ranges_count_and_cross_years() {
    let (nov, feb) = (
        Month::parse("2024-11").unwrap(),
        Month::parse("2025-02").unwrap(),
    );
    let names: Vec<String> = Month::range(nov, feb).map(|m| m.to_string()).collect();
    assert_eq!(names, ["2024-11", "2024-12", "2025-01", "2025-02"]);
    assert_eq!(Month::count(nov, feb), 4);
    assert_eq!(Month::count(feb, nov), 0);
    assert_eq!(Month::range(feb, nov).count(), 0);
    assert_eq!(feb.previous().previous(), Month::parse("2024-12").unwrap());
    assert_eq!(
        Month::parse("2024-02").unwrap().last_day(),
        NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()
    );
}
