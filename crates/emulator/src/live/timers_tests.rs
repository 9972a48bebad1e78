use super::*;

const T: Micros = 1_750_000_000_000_000;
const S: Micros = 1_000_000;

#[test]
fn sixty_quiet_seconds_drop_the_connection_once_the_publisher_is_past_them() {
    let subscribed = None;
    assert_eq!(
        due(T + 59 * S, T + 59 * S, T, subscribed),
        Due::Nothing { next: T + 60 * S }
    );
    assert_eq!(due(T + 60 * S, T + 60 * S, T, subscribed), Due::Drop);
    // Values due before the deadline may still be on their way.
    assert_eq!(
        due(T + 61 * S, T + 59 * S, T, subscribed),
        Due::Nothing { next: T + 60 * S }
    );
    // Activity moves the deadline.
    assert_eq!(
        due(T + 61 * S, T + 61 * S, T + 30 * S, subscribed),
        Due::Nothing { next: T + 90 * S }
    );
}

#[test]
fn three_minutes_without_a_subscription_close_the_connection() {
    let quiet = Some(T);
    // Pings keep it active, but do not save it.
    let active = T + 175 * S;
    assert_eq!(
        due(T + 179 * S, T + 179 * S, active, quiet),
        Due::Nothing { next: T + 180 * S }
    );
    assert_eq!(due(T + 180 * S, T + 180 * S, active, quiet), Due::Close);
    // Idle since before the 3 minutes: the idle drop came first.
    assert_eq!(due(T + 200 * S, T + 200 * S, T + 10 * S, quiet), Due::Drop);
    // A jump past both deadlines: the earlier one acts.
    assert_eq!(
        due(T + 999 * S, T + 999 * S, T + 150 * S, quiet),
        Due::Close
    );
}

#[test]
fn waits_follow_the_clock_speed_and_are_capped() {
    assert_eq!(real_wait(None, 1.0), MAX_WAIT);
    assert_eq!(real_wait(Some(1_000_000), 0.0), MAX_WAIT, "a stopped clock");
    assert_eq!(real_wait(Some(50_000), 1.0), Duration::from_millis(50));
    assert_eq!(
        real_wait(Some(60_000_000), 1_000.0),
        Duration::from_millis(60)
    );
    assert_eq!(real_wait(Some(3_600_000_000), 10.0), MAX_WAIT);
    assert_eq!(real_wait(Some(-5), 1.0), Duration::from_millis(1));
}
