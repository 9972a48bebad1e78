use super::*;
use proptest::prelude::*;

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn period(name: &str) -> (TenorKind, Option<NaiveDate>, Option<NaiveDate>) {
    let t = Tenor::parse(name).unwrap();
    (t.kind(), t.start(), t.end())
}

#[test]
fn parses_the_four_shapes_of_the_interface() {
    use TenorKind::*;
    let jan = (Some(date(2025, 1, 1)), Some(date(2025, 1, 31)));
    assert_eq!(period("Jan 25"), (Month, jan.0, jan.1));
    assert_eq!(
        period("Q1 25"),
        (Quarter, Some(date(2025, 1, 1)), Some(date(2025, 3, 31)))
    );
    assert_eq!(
        period("Q4 30"),
        (Quarter, Some(date(2030, 10, 1)), Some(date(2030, 12, 31)))
    );
    assert_eq!(
        period("1-5 Jan 25"),
        (Window, Some(date(2025, 1, 1)), Some(date(2025, 1, 5)))
    );
    assert_eq!(
        period("21-25 Dec 26"),
        (Window, Some(date(2026, 12, 21)), Some(date(2026, 12, 25)))
    );
    assert_eq!(period("C 00"), (Continuous, None, None));
    assert_eq!(period("C 02"), (Continuous, None, None));
}

#[test]
fn end_of_month_follows_leap_years() {
    assert_eq!(
        Tenor::parse("26-EOM Feb 24").unwrap().end(),
        Some(date(2024, 2, 29))
    );
    assert_eq!(
        Tenor::parse("26-EOM Feb 25").unwrap().end(),
        Some(date(2025, 2, 28))
    );
    assert_eq!(
        Tenor::parse("26-EOM Apr 25").unwrap().end(),
        Some(date(2025, 4, 30))
    );
    assert_eq!(
        Tenor::parse("Feb 00").unwrap().end(),
        Some(date(2000, 2, 29))
    );
}

#[test]
fn impossible_values_of_a_known_shape_are_errors_with_a_reason() {
    for (name, reason) in [
        ("Q5 24", "Q1 to Q4"),
        ("Q0 24", "Q1 to Q4"),
        ("3-7 Jan 24", "not a 5-day window"),
        ("32-EOM Jan 24", "not a 5-day window"),
        ("26-31 Jan 24", "not a 5-day window"),
    ] {
        let err = Tenor::parse(name).unwrap_err();
        assert_eq!(err.name, name);
        assert!(err.reason.contains(reason), "{name}: {}", err.reason);
        assert!(err.to_string().contains(name));
    }
}

#[test]
fn window_days_are_read_only_as_the_interface_writes_them() {
    // Found by fuzzing: `01-5 Oct 25` was read as `1-5 Oct 25`, one period
    // under two names.
    for name in ["01-5 Oct 25", "1-05 Jan 24", "06-10 Jan 24"] {
        let err = Tenor::parse(name).unwrap_err();
        assert!(
            err.reason.contains("not a 5-day window"),
            "{name}: {}",
            err.reason
        );
    }
    assert_eq!(
        Tenor::parse("26-eom Jan 24").unwrap().kind(),
        TenorKind::Window
    );
    assert_eq!(Tenor::parse_lenient("01-5 Oct 25").kind(), TenorKind::Other);
}

#[test]
fn names_of_no_known_shape_are_other() {
    for name in [
        "Cal-25",
        "H1 Jan 25",
        "BOM",
        "",
        "Jan  25",
        "Dec 2025",
        "1H Jan 25",
        // Shapes the interface does not show: years, half-years, seasons,
        // and a three-letter word that is not a month.
        "Cal 27",
        "H1 27",
        "Win 26",
        "Sum 26",
        "Foo 24",
        "1-5 Foo 24",
        "3-7 Foo 24",
    ] {
        let t = Tenor::parse(name).unwrap();
        assert_eq!(t.kind(), TenorKind::Other, "{name:?}");
        assert_eq!(t.start(), None);
        assert_eq!(t.to_string(), name);
    }
}

#[test]
fn lenient_parse_keeps_server_names_it_cannot_read() {
    let t = Tenor::parse_lenient("Q5 24");
    assert_eq!(t.kind(), TenorKind::Other);
    assert_eq!(t.name(), "Q5 24");
    assert_eq!(Tenor::parse_lenient("Jan 25").kind(), TenorKind::Month);
}

#[test]
fn month_names_are_case_insensitive_but_the_name_is_kept() {
    let t = Tenor::parse("JAN 25").unwrap();
    assert_eq!(t.start(), Some(date(2025, 1, 1)));
    assert_eq!(t.to_string(), "JAN 25");
    assert_ne!(t, Tenor::parse("Jan 25").unwrap());
}

#[test]
fn sorts_in_calendar_order() {
    let mut names = vec![
        "Feb 25",
        "Q1 25",
        "weird",
        "26-EOM Jan 25",
        "C 01",
        "Jan 25",
        "6-10 Jan 25",
        "1-5 Jan 25",
        "C 00",
        "Another",
        "Q2 25",
        "Dec 24",
    ];
    names.reverse();
    let mut tenors: Vec<Tenor> = names.iter().map(|n| Tenor::parse(n).unwrap()).collect();
    tenors.sort();
    let sorted: Vec<&str> = tenors.iter().map(Tenor::name).collect();
    assert_eq!(
        sorted,
        [
            "C 00",
            "C 01",
            "Dec 24",
            "1-5 Jan 25",
            "Jan 25",
            "Q1 25",
            "6-10 Jan 25",
            "26-EOM Jan 25",
            "Feb 25",
            "Q2 25",
            "Another",
            "weird",
        ]
    );
}

#[test]
fn builds_names_of_months_and_windows() {
    assert_eq!(Tenor::month_name(2025, 1), "Jan 25");
    assert_eq!(Tenor::window_name(2024, 2, 26), "26-EOM Feb 24");
    assert_eq!(Tenor::window_name(2031, 11, 6), "6-10 Nov 31");
}

fn any_tenor_name() -> impl Strategy<Value = String> {
    prop_oneof![
        (2000i32..2100, 1u32..=12).prop_map(|(y, m)| Tenor::month_name(y, m)),
        (2000i32..2100, 1u32..=4).prop_map(|(y, q)| format!("Q{q} {:02}", y % 100)),
        (2000i32..2100, 1u32..=12, 0usize..6).prop_map(|(y, m, w)| Tenor::window_name(
            y,
            m,
            WINDOWS[w].0
        )),
        (0u8..3).prop_map(|n| format!("C {n:02}")),
        "[A-Za-z0-9 -]{0,12}",
    ]
}

proptest! {
    #[test]
    fn every_window_of_every_month_round_trips(year in 2000i32..2100, month in 1u32..=12, w in 0usize..6) {
        let (first, last) = WINDOWS[w];
        let name = Tenor::window_name(year, month, first);
        let t = Tenor::parse(&name).unwrap();
        prop_assert_eq!(t.to_string(), name.clone());
        prop_assert_eq!(t.kind(), TenorKind::Window);
        prop_assert_eq!(t.start(), Some(date(year, month, first)));
        let end = match last {
            Some(day) => date(year, month, day),
            None => last_day(date(year, month, 1)),
        };
        prop_assert_eq!(t.end(), Some(end));
        // Windows tile the month: the next window starts the day after this one ends.
        if let Some(next) = WINDOWS.get(w + 1) {
            prop_assert_eq!(end.succ_opt().unwrap(), date(year, month, next.0));
        } else {
            prop_assert_eq!(end.succ_opt().unwrap().day(), 1);
        }
    }

    #[test]
    fn ordering_is_a_total_order_consistent_with_equality(
        a in any_tenor_name(), b in any_tenor_name(), c in any_tenor_name()
    ) {
        let (a, b, c) = (Tenor::parse_lenient(&a), Tenor::parse_lenient(&b), Tenor::parse_lenient(&c));
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        prop_assert_eq!(a.cmp(&b) == Ordering::Equal, a == b);
        if a <= b && b <= c {
            prop_assert!(a <= c);
        }
    }

    #[test]
    fn parse_never_panics(name in "\\PC{0,20}") {
        let _ = Tenor::parse(&name);
    }
}
