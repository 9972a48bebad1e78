use super::*;

fn python(term: Term) -> String {
    match term {
        Term::Adjust(Adjust::Ratio) => "adjust='ratio'".into(),
        Term::Adjust(Adjust::Difference) => "adjust='difference'".into(),
        other => format!("<{}>", other.words()),
    }
}

#[test]
fn a_ratio_error_carries_its_fields_and_names_the_adjustments_as_told() {
    let error = CurveError::RatioNotAboveZero {
        curve_id: "a".into(),
        tenor: "Jan 25".into(),
        price: "-2".into(),
        at: "2025-01-01".into(),
        what: "divide by".into(),
    };
    assert_eq!(
        error.to_string(),
        "curve a: Jan 25 is priced -2 on 2025-01-01, which a ratio adjustment would divide \
         by; a ratio needs prices above zero (a difference adjustment takes a curve that \
         goes negative)"
    );
    assert!(
        error.words(&python).contains(
            "which adjust='ratio' would divide by; a ratio needs prices above zero \
                       (adjust='difference' takes"
        ),
        "{}",
        error.words(&python)
    );
}

#[test]
fn the_rust_words_name_no_parameter() {
    let errors = [
        CurveError::NeedsFactor {
            curve_id: "a".into(),
            from: Unit::parse("$/mt").unwrap(),
            to: Unit::parse("$/bbl").unwrap(),
        },
        CurveError::HolidaysWithCalendarWeights,
    ];
    for error in errors {
        let message = error.to_string();
        assert!(!message.contains('='), "{message}");
    }
    assert!(CurveError::HolidaysWithCalendarWeights
        .words(&|_| "weights=\"business\"".into())
        .starts_with("holidays only apply to weights=\"business\";"));
}

#[test]
fn words_without_terms_are_as_said() {
    let error = CurveError::new("unknown unit");
    assert_eq!(error.words(&|_| unreachable!()), "unknown unit");
    assert_eq!(error.to_string(), "unknown unit");
}
