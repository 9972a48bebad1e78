use super::*;

const HOUR: Micros = 3_600 * 1_000_000;

#[test]
fn the_service_clock_is_read_from_the_feed_not_from_this_machine() {
    let mut round = GapRound::default();
    assert_eq!(round.service_now(5 * HOUR), 5 * HOUR);
    round.saw_service_time(7 * HOUR);
    round.saw_service_time(6 * HOUR);
    assert_eq!(round.service_now(5 * HOUR), 7 * HOUR);
    assert_eq!(round.service_now(9 * HOUR), 9 * HOUR);
}

#[test]
fn the_hint_narrows_the_days_asked_for_until_the_round_is_filled() {
    let mut round = GapRound::default();
    assert_eq!(round.since(5 * HOUR), 5 * HOUR);
    round.saw_service_time(100 * HOUR);
    round.connection_lost();
    round.opened(2);
    // Delivered long ago, but the connection lived until 100 h.
    assert_eq!(round.since(HOUR), 100 * HOUR - GAP_MARGIN);
    assert_eq!(round.since(100 * HOUR), 100 * HOUR);
    // A second loss before the round is filled keeps the earlier hint.
    round.saw_service_time(200 * HOUR);
    round.connection_lost();
    round.opened(2);
    round.closed(false);
    assert_eq!(round.since(HOUR), 100 * HOUR - GAP_MARGIN);
    round.closed(false);
    assert_eq!(round.since(HOUR), HOUR);
}

#[test]
fn a_failed_backfill_keeps_the_hint() {
    let mut round = GapRound::default();
    round.saw_service_time(100 * HOUR);
    round.connection_lost();
    round.opened(1);
    round.closed(true);
    round.saw_service_time(200 * HOUR);
    round.connection_lost();
    round.opened(1);
    assert_eq!(round.since(HOUR), 100 * HOUR - GAP_MARGIN);
}
