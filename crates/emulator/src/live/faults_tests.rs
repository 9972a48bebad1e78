use super::*;

#[test]
fn countdowns_switches_and_clear() {
    let faults = LiveFaults::default();
    assert!(!faults.take_auth_failure() && !faults.take_command_failure());
    assert!(faults.answer_pings() && !faults.firehose());
    faults.fail_next_auth(2);
    faults.fail_next_command(1);
    assert!(faults.take_auth_failure() && faults.take_auth_failure());
    assert!(!faults.take_auth_failure());
    assert!(faults.take_command_failure() && !faults.take_command_failure());
    faults.fail_next_auth(5);
    faults.fail_next_command(5);
    faults.set_answer_pings(false);
    faults.set_silent(true);
    faults.set_firehose(true);
    faults.clear();
    assert!(!faults.take_auth_failure() && !faults.take_command_failure());
    assert!(faults.answer_pings() && !faults.silent() && !faults.firehose());
}
