use super::*;

fn drained(outbox: &mut Conflating<&'static str>) -> Vec<Outgoing<&'static str>> {
    let mut out = Vec::new();
    outbox.drain_into(&mut out);
    out
}

fn frames(names: &[&'static str]) -> Vec<Outgoing<&'static str>> {
    names.iter().map(|n| Outgoing::Frame(*n)).collect()
}

fn subscribed(keys: &[u64]) -> Conflating<&'static str> {
    let mut outbox = Conflating::default();
    for &key in keys {
        outbox.subscribe(key);
    }
    outbox
}

#[test]
fn only_the_latest_price_of_a_key_is_kept_in_its_first_place() {
    let mut outbox = subscribed(&[1, 2]);
    outbox.price(1, "a1");
    outbox.reply("pong");
    outbox.price(2, "b1");
    outbox.price(1, "a2");
    outbox.price(1, "a3");
    assert_eq!(drained(&mut outbox), frames(&["a3", "pong", "b1"]));
    assert!(outbox.is_empty());
    outbox.price(1, "a4");
    assert_eq!(drained(&mut outbox), frames(&["a4"]));
}

#[test]
fn memory_stays_bounded_however_many_values_arrive() {
    let mut outbox = subscribed(&(0..50).collect::<Vec<_>>());
    for i in 0..100_000u64 {
        outbox.price(i % 50, "value");
    }
    assert_eq!(outbox.queue.len(), 50);
    assert_eq!(outbox.latest.len(), 50);
    assert_eq!(drained(&mut outbox).len(), 50);
}

#[test]
fn values_of_keys_not_subscribed_to_are_not_written() {
    let mut outbox = subscribed(&[1, 2]);
    outbox.price(1, "a1");
    outbox.price(2, "b1");
    outbox.price(3, "c1");
    outbox.unsubscribe(1);
    outbox.unsubscribe(9);
    outbox.price(1, "a2");
    assert_eq!(drained(&mut outbox), frames(&["b1"]));
    outbox.subscribe(1);
    outbox.price(1, "a3");
    outbox.unsubscribe(1);
    outbox.subscribe(1);
    outbox.price(1, "a4");
    assert_eq!(outbox.queue.len(), 1);
    assert_eq!(drained(&mut outbox), frames(&["a4"]));
}

#[test]
fn nothing_follows_a_close() {
    let mut outbox = subscribed(&[1]);
    outbox.reply("NOT_LOGGED");
    outbox.close(1008, "not logged in");
    outbox.close(1000, "twice");
    assert!(!outbox.reply("late"));
    outbox.price(1, "late");
    assert!(outbox.is_closing());
    let close = Outgoing::Close {
        code: 1008,
        reason: "not logged in",
    };
    assert_eq!(
        drained(&mut outbox),
        vec![Outgoing::Frame("NOT_LOGGED"), close]
    );
}

#[test]
fn unread_replies_are_bounded() {
    let mut outbox = Conflating::default();
    assert!((0..MAX_PENDING_REPLIES).all(|_| outbox.reply("pong")));
    assert!(!outbox.reply("pong"));
    drained(&mut outbox);
    assert!(outbox.reply("pong"));
}
