use super::*;

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(c, t)| (c.to_string(), t.to_string()))
        .collect()
}

fn live() -> LiveConfig {
    LiveConfig {
        url: "ws://127.0.0.1:1/v2/customer/socket/websocket".into(),
        ..LiveConfig::default()
    }
}

fn config(subs: &[(&str, &str)], rotate: &str) -> Result<RecordConfig, ClientError> {
    RecordConfig::new(&pairs(subs), rotate, 10, 100, true, live())
}

fn refusal(result: Result<RecordConfig, ClientError>) -> String {
    match result {
        Err(ClientError::InvalidRequest(invalid)) => invalid.to_string(),
        other => panic!("expected InvalidRequest, got {other:?}"),
    }
}

#[test]
fn periods_read_as_a_number_and_a_unit() {
    let secs = |text| parse_period("rotate", text).unwrap().as_secs_f64();
    assert_eq!(secs("5min"), 300.0);
    assert_eq!(secs("30s"), 30.0);
    assert_eq!(secs("30"), 30.0);
    assert_eq!(secs("1.5h"), 5400.0);
    assert_eq!(secs("1d"), 86_400.0);
    assert_eq!(secs("250ms"), 0.25);
    for bad in ["", "5 parsecs", "min", "-5s", "5min5"] {
        assert!(parse_period("rotate", bad).is_err(), "{bad:?}");
    }
}

#[test]
fn subscriptions_are_checked_and_repeats_dropped() {
    let ok = config(&[("C1", "*"), ("C1", "*"), ("C2", "Jan 26")], "5min").unwrap();
    assert_eq!(ok.subscriptions.len(), 2);
    assert!(refusal(config(&[], "5min")).contains("at least one"));
    assert!(refusal(config(&[("C1", "Q5 26")], "5min")).contains("Q5 26"));
    assert!(refusal(config(&[("", "*")], "5min")).contains("curve"));
}

#[test]
fn rotation_and_limits_are_checked() {
    assert!(refusal(config(&[("C1", "*")], "0s")).contains("rotate"));
    assert!(refusal(config(&[("C1", "*")], "2d")).contains("rotate"));
    assert!(refusal(config(&[("C1", "*")], "often")).contains("'5min'"));
    let subs = pairs(&[("C1", "*")]);
    let zero_rows = RecordConfig::new(&subs, "5min", 0, 10, true, live());
    assert!(refusal(zero_rows).contains("rotate_rows"));
    let zero_hold = RecordConfig::new(&subs, "5min", 10, 0, true, live());
    assert!(
        matches!(&zero_hold, Err(ClientError::InvalidRequest(i)) if i.argument == Argument::HoldLimit)
    );
    assert!(refusal(zero_hold).contains("hold limit must be from 1"));
}
