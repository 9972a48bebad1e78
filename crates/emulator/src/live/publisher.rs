//! The publisher: one task per emulator that pushes each subscribed tenor's
//! new values to its subscribers as the clock passes their instants, and
//! restarts the feed when the clock crosses Sunday 12:00 UTC.
//!
//! The values are the world's intraday ticks, so every one is also served by
//! the intraday endpoints (with its microseconds) and a client can backfill.
//! The clock may run fast, stop or jump, so the task wakes when the next
//! value is due (to the tens of microseconds, see [`super::punctual`]) or at
//! least every 100 ms of real time, and on each wake
//! publishes everything in the interval since the last one, oldest first.

use super::delivery::Deliveries;
use super::punctual::{sleep_precisely, MIN_WAIT};
use super::registry::{world_frame, Registry};
use super::restart::restart_crossed;
use super::timers::real_wait_at_least;
use super::Parts;
use crate::calendar::MICROS_PER_DAY;
use crate::world::published::{next_publication, published_between};
use crate::world::World;
use domain::timestamp::Micros;

/// After a jump of the clock, values older than this before the new time are
/// not sent: a subscriber would have had them conflated away (live rule 4),
/// and they stay in the intraday history.
const MAX_CATCH_UP: Micros = MICROS_PER_DAY;

pub async fn run(state: Parts<'_>) {
    let live = state.live;
    let mut restart_checked = state.clock.now();
    loop {
        let now = state.clock.now();
        if let Some(restart) = restart_crossed(restart_checked, now) {
            live.restart_opened_before(restart);
        }
        restart_checked = now;
        let world = state.world.get();
        let (deliveries, next_due, idle) = live.with_registry(|registry| {
            let (deliveries, due) = collect(registry, &world, now, live.faults.firehose());
            (deliveries, due, registry.peers.is_empty())
        });
        deliveries.deliver(live, now).await;
        live.set_published_through(now);
        let woken = live.publisher_woken();
        if idle {
            woken.await;
            continue;
        }
        // From the clock read now, not at the start of the cycle, so that
        // the cycle's own time is not slept again.
        let until_due = next_due.map(|due| due - state.clock.now());
        let wait = real_wait_at_least(until_due, state.clock.scale(), MIN_WAIT);
        tokio::select! {
            _ = sleep_precisely(wait) => {}
            _ = woken => {}
        }
    }
}

/// Gathers every value published in `(through, now]` of each key for its
/// subscribers; returns them and when the next one is due. While the
/// firehose runs, the world's values are held back (the writers make
/// synthetic ones) and only `through` moves, past the synthetic values, so
/// that the world's values resume strictly after them.
pub(super) fn collect(
    registry: &mut Registry,
    world: &World,
    now: Micros,
    firehose: bool,
) -> (Deliveries, Option<Micros>) {
    let mut next_due: Option<Micros> = None;
    let mut deliveries = Deliveries::default();
    let mut earliest = |due: Micros| {
        next_due = Some(next_due.map_or(due, |d: Micros| d.min(due)));
    };
    for subscribed in registry.keys.values_mut() {
        let key = &subscribed.key;
        let Some(tenor) = &key.tenor else {
            continue;
        };
        // Most keys have nothing due at a given wake; looking up the next
        // instant of each on every one made the cycle, and every value in
        // it, late by a fraction of a millisecond.
        if let Some(due) = subscribed.next_due.filter(|due| !firehose && now < *due) {
            earliest(due);
            continue;
        }
        let curve = &world.curves[key.curve];
        if firehose {
            subscribed.through = subscribed.through.max(now).max(key.synthetic_at());
        } else if now > subscribed.through {
            let after = subscribed.through.max(now - MAX_CATCH_UP);
            let stamps = published_between(world, curve, tenor, after, now);
            if !stamps.is_empty() {
                let peers = subscribed.subscribers.values().cloned().collect();
                let frames = stamps
                    .into_iter()
                    .map(|s| (s.at, world_frame(world, curve, tenor, s)));
                deliveries.add(key.id, peers, frames);
            }
            subscribed.through = now;
        }
        subscribed.next_due = next_publication(world, curve, tenor, subscribed.through);
        if let Some(due) = subscribed.next_due {
            earliest(due);
        }
    }
    (deliveries, next_due)
}
