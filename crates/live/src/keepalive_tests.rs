use super::*;

const PING: Duration = Duration::from_secs(40);
const PONG: Duration = Duration::from_secs(10);

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

#[test]
fn pings_when_quiet_and_waits_for_the_pong() {
    let t0 = Instant::now();
    let mut keep = KeepAlive::new(PING, PONG, t0);
    assert_eq!(keep.check(t0, None), Due::Wait(t0 + PING));
    assert_eq!(keep.check(t0 + secs(40), None), Due::Ping);
    keep.last_sent = t0 + secs(40);
    keep.outstanding = Some(("k".into(), t0 + secs(40)));
    // Received a price meanwhile: the pong deadline comes first.
    keep.last_received = t0 + secs(45);
    assert_eq!(keep.check(t0 + secs(45), None), Due::Wait(t0 + secs(50)));
    assert!(matches!(keep.check(t0 + secs(50), None), Due::Dead(r) if r.contains("pong")));
    assert!(!keep.answered("other"));
    assert!(keep.answered("k"));
    assert_eq!(keep.check(t0 + secs(50), None), Due::Wait(t0 + secs(80)));
}

#[test]
fn a_silent_socket_is_dead_even_while_we_keep_sending() {
    let t0 = Instant::now();
    let mut keep = KeepAlive::new(PING, PONG, t0);
    keep.last_sent = t0 + secs(49);
    assert!(
        matches!(keep.check(t0 + secs(50), None), Due::Dead(r) if r.contains("nothing received"))
    );
}

#[test]
fn an_unanswered_command_counts_like_an_unanswered_ping() {
    let t0 = Instant::now();
    let keep = KeepAlive::new(PING, PONG, t0);
    let sent = Some(t0 + secs(1));
    assert_eq!(keep.check(t0 + secs(2), sent), Due::Wait(t0 + secs(11)));
    assert!(matches!(keep.check(t0 + secs(11), sent), Due::Dead(_)));
}
