use super::*;

fn catalogue() -> Vec<CurveQuotation> {
    let curve: CurveQuotation = serde_json::from_value(serde_json::json!({
        "id": "c1",
        "contracts": ["Jul 25", "Aug 25", "C 00"],
    }))
    .unwrap();
    vec![curve]
}

fn check(curve_id: &str, tenor: &str) -> Result<(), ClientError> {
    let subscription = crate::checked_subscription(curve_id, tenor).unwrap();
    check_listed(
        &catalogue(),
        &subscription,
        crate::Remedy::Advice(SUBSCRIBE_ANYWAY),
    )
}

#[test]
fn listed_contracts_and_every_tenor_of_a_listed_curve_pass() {
    for tenor in ["Jul 25", "C 00", "*"] {
        check("c1", tenor).unwrap_or_else(|e| panic!("{tenor}: {e}"));
    }
}

#[test]
fn a_contract_in_another_letter_case_is_the_listed_one() {
    // The service matches names as it spells them: the subscription takes
    // the catalogue's spelling, so it is listed and answered.
    let subscription = crate::checked_subscription("c1", "jul 25").unwrap();
    assert_eq!(subscription.tenor, "Jul 25");
    check("c1", "jul 25").unwrap();
}

#[test]
fn an_unlisted_contract_or_curve_is_refused_saying_how_to_subscribe_anyway() {
    for (curve, tenor, said) in [
        (
            "c1",
            "Jul 99",
            "tenor \"Jul 99\" is not among the contracts",
        ),
        ("c1", "Q3 25", "(Jul 25, Aug 25, C 00)"),
        ("c9", "*", "curve_id \"c9\" is not in the catalogue"),
    ] {
        match check(curve, tenor) {
            Err(ClientError::InvalidRequest(why)) => {
                assert!(
                    why.words.contains(said) && why.advice == Some(SUBSCRIBE_ANYWAY),
                    "{why}"
                );
                assert_eq!(why.rule, places::Rule::Unlisted);
            }
            other => panic!("{curve} {tenor}: {other:?}"),
        }
    }
}
