use super::*;

#[tokio::test]
async fn a_time_scale_is_checked_before_anything_binds() {
    let config = EmulatorConfig {
        time_scale: -1.0,
        ..EmulatorConfig::default()
    };
    let refused = Emulator::start(config).await.err().unwrap();
    assert!(matches!(
        refused,
        StartError::Config(ControlError::TimeScale(_))
    ));
}

#[tokio::test]
async fn a_port_in_use_is_named_in_the_error() {
    let first = Emulator::start(EmulatorConfig::default()).await.unwrap();
    let port = first.addr().port();
    let config = EmulatorConfig {
        bind: first.addr(),
        ..EmulatorConfig::default()
    };
    let refused = Emulator::start(config).await.err().unwrap();
    assert!(matches!(refused, StartError::Bind { .. }));
    let message = refused.to_string();
    assert!(
        message.starts_with(&format!("cannot start the emulator on port {port}: ")),
        "{message}"
    );
}

#[tokio::test]
async fn controls_act_on_the_running_emulator() {
    let emulator = Emulator::start(EmulatorConfig::default()).await.unwrap();
    emulator.controls().set_time_scale(0.0).unwrap();
    assert_eq!(emulator.state().clock.scale(), 0.0);
}
