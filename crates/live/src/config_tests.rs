use super::*;

#[test]
fn the_endpoint_appends_the_socket_path_once() {
    let expected = "wss://live.example/v2/customer/socket/websocket";
    assert_eq!(LiveConfig::endpoint("wss://live.example"), expected);
    assert_eq!(LiveConfig::endpoint("wss://live.example/"), expected);
}

#[test]
fn settings_are_checked() {
    let ok = LiveConfig {
        url: LiveConfig::endpoint("ws://127.0.0.1:1"),
        ..LiveConfig::default()
    };
    assert!(ok.validate().is_ok());
    let http = LiveConfig {
        url: "http://x".into(),
        ..ok.clone()
    };
    assert!(http.validate().unwrap_err().to_string().contains("ws://"));
    let zero = LiveConfig {
        pong_timeout: Duration::ZERO,
        ..ok.clone()
    };
    assert!(zero
        .validate()
        .unwrap_err()
        .to_string()
        .contains("pong_timeout"));
    let inverted = LiveConfig {
        reconnect_min: Duration::from_secs(5),
        reconnect_max: Duration::from_secs(1),
        ..ok.clone()
    };
    assert!(inverted.validate().is_err());
    for (queue_size, valid) in [
        (0, false),
        (1, true),
        (LiveConfig::MAX_QUEUE_SIZE, true),
        (LiveConfig::MAX_QUEUE_SIZE + 1, false),
    ] {
        let config = LiveConfig {
            queue_size,
            ..ok.clone()
        };
        match config.validate() {
            Ok(()) => assert!(valid, "{queue_size} accepted"),
            Err(e) => {
                assert!(!valid, "{queue_size} refused");
                assert!(e.to_string().contains("queue_size"), "{e}");
            }
        }
    }
}

#[test]
fn a_reconnect_max_below_the_minimum_lowers_the_minimum() {
    let base = LiveConfig {
        url: LiveConfig::endpoint("ws://127.0.0.1:1"),
        ..LiveConfig::default()
    };
    let short = base.clone().with_reconnect_max(Duration::from_millis(100));
    assert_eq!(short.reconnect_min, Duration::from_millis(100));
    assert_eq!(short.reconnect_max, Duration::from_millis(100));
    assert!(short.validate().is_ok());
    let long = base.clone().with_reconnect_max(Duration::from_secs(60));
    assert_eq!(long.reconnect_min, LiveConfig::DEFAULT_RECONNECT_MIN);
    let zero = base.with_reconnect_max(Duration::ZERO);
    let refused = zero.validate().unwrap_err().to_string();
    assert!(refused.contains("reconnect_max"), "{refused}");
}
