use super::*;

#[test]
fn counts_start_at_one() {
    assert_eq!(at_least_one(1), Ok(1));
    assert_eq!(
        at_least_one(0).unwrap_err().to_string(),
        "count must be at least 1"
    );
}

#[test]
fn a_time_scale_is_finite_and_not_negative() {
    assert_eq!(time_scale(0.0), Ok(0.0));
    assert_eq!(time_scale(60.0), Ok(60.0));
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(time_scale(bad), Err(ControlError::TimeScale(_))));
    }
    assert_eq!(
        time_scale(-1.0).unwrap_err().to_string(),
        "time_scale must be a finite number >= 0, not -1"
    );
}

#[test]
fn seconds_are_a_duration() {
    assert_eq!(seconds("latency", 0.25), Ok(Duration::from_millis(250)));
    assert_eq!(
        seconds("latency", -0.5).unwrap_err().to_string(),
        "latency must be a number of seconds >= 0, not -0.5"
    );
    assert!(seconds("latency", f64::NAN).is_err());
}

#[test]
fn statuses_are_those_of_http() {
    assert_eq!(http_status(100), Ok(100));
    assert_eq!(http_status(599), Ok(599));
    assert_eq!(
        http_status(600).unwrap_err().to_string(),
        "status must be an HTTP status from 100 to 599, not 600"
    );
    assert_eq!(http_status(99), Err(ControlError::Status(99)));
}

#[test]
fn corruptions_are_named_as_the_control_api_names_them() {
    assert_eq!("truncated".parse(), Ok(Corruption::Truncated));
    assert_eq!("malformed".parse(), Ok(Corruption::Malformed));
    let reset = "reset".parse::<Corruption>().unwrap_err();
    assert_eq!(
        reset.to_string(),
        "kind must be 'truncated' or 'malformed', not 'reset'"
    );
}
