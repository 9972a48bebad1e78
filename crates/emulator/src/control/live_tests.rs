use super::super::tests::controls;
use super::super::ControlError;

#[test]
fn live_countdowns_need_a_count() {
    let controls = controls();
    let faults = &controls.state.live.faults;
    controls.fail_next_auth(1).unwrap();
    controls.fail_next_live_command(2).unwrap();
    assert!(faults.take_auth_failure() && !faults.take_auth_failure());
    assert!(faults.take_command_failure() && faults.take_command_failure());
    assert!(!faults.take_command_failure());
    assert_eq!(controls.fail_next_auth(0), Err(ControlError::ZeroCount));
    assert_eq!(
        controls.fail_next_live_command(0),
        Err(ControlError::ZeroCount)
    );
}

#[test]
fn live_switches_turn_on_and_off() {
    let controls = controls();
    let faults = &controls.state.live.faults;
    controls.answer_pings(false);
    controls.silence_live(true);
    controls.firehose(true);
    assert!(!faults.answer_pings() && faults.silent() && faults.firehose());
    controls.answer_pings(true);
    controls.silence_live(false);
    controls.firehose(false);
    assert!(faults.answer_pings() && !faults.silent() && !faults.firehose());
    assert_eq!(controls.live_connections(), 0);
}
