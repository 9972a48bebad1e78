//! Who is subscribed to what. Each (curve, tenor) someone is subscribed to
//! is a key with the instant up to which its values have gone out: a new
//! subscriber's snapshot is the last value at or before that instant, and
//! the publisher sends what comes after it, so a subscriber neither misses
//! nor repeats a value between its snapshot and the updates.

use std::collections::HashMap;
use std::sync::Arc;

use super::key::FeedKey;
use super::peer::{KeyName, Peer};
use super::tenors::subscribed_tenors;
use crate::calendar::day_of;
use crate::world::curves::Curve;
use crate::world::prices::{price, Stamp};
use crate::world::published::last_published;
use crate::world::World;
use domain::live::{LivePrice, ALL_TENORS};
use domain::tenor::Tenor;
use domain::timestamp::Micros;

pub(crate) struct Subscribed {
    pub key: Arc<FeedKey>,
    /// Every value published at or before this instant has gone out.
    pub through: Micros,
    /// When the first value after `through` is due, once looked up: until
    /// then the key has nothing to publish and costs the publisher nothing.
    pub next_due: Option<Micros>,
    pub subscribers: HashMap<u64, Arc<Peer>>,
}

#[derive(Default)]
pub(crate) struct Registry {
    pub keys: HashMap<KeyName, Subscribed>,
    pub peers: HashMap<u64, Arc<Peer>>,
    next_key: u64,
}

/// The `price` frame of a world value.
pub(crate) fn world_frame(world: &World, curve: &Curve, tenor: &Tenor, stamp: Stamp) -> String {
    LivePrice {
        curve_id: curve.id.clone(),
        tenor: tenor.name().to_owned(),
        generated_on: stamp.at,
        price: price(world.seed, curve, tenor, stamp.at),
    }
    .encode()
}

impl Registry {
    pub(crate) fn add_peer(&mut self, peer: Arc<Peer>) {
        self.peers.insert(peer.id, peer);
    }

    pub(crate) fn remove_peer(&mut self, peer: &Peer, now: Micros) {
        let names: Vec<KeyName> = peer.keys().keys().cloned().collect();
        for name in names {
            self.remove(peer, &name, now);
        }
        self.peers.remove(&peer.id);
    }

    /// Subscribes `peer` to `tenor` (a name or `*`) of `curve`, and queues the
    /// snapshot: the last value of each tenor that has one.
    pub(crate) fn subscribe(
        &mut self,
        world: &World,
        peer: &Arc<Peer>,
        curve: &Curve,
        tenor: &str,
        now: Micros,
    ) {
        for (name, parsed) in subscribed_tenors(curve, tenor, day_of(now)) {
            let key_name = (curve.index, name);
            if !self.keys.contains_key(&key_name) {
                let key = self.new_key(world, curve, &key_name.1, parsed, now);
                let fresh = Subscribed {
                    key: Arc::new(key),
                    through: now,
                    next_due: None,
                    subscribers: HashMap::new(),
                };
                self.keys.insert(key_name.clone(), fresh);
            }
            let subscribed = self.keys.get_mut(&key_name).expect("inserted above");
            subscribed.subscribers.insert(peer.id, Arc::clone(peer));
            peer.keys().insert(key_name, Arc::clone(&subscribed.key));
            let key = &subscribed.key;
            peer.outbox.update(|o| o.subscribe(key.id));
            if let Some(tenor) = &key.tenor {
                // After the firehose, `through` may be ahead of the clock;
                // the world values in between were never sent.
                let at = subscribed.through.min(now);
                if let Some(stamp) = last_published(world, curve, tenor, at) {
                    let frame = world_frame(world, curve, tenor, stamp);
                    peer.outbox.update(|o| o.price(key.id, frame.into()));
                }
            }
        }
        let has_keys = !peer.keys().is_empty();
        peer.keys_changed(now, has_keys);
    }

    /// Ends `peer`'s subscription to `tenor` of `curve`; `*` ends all of the
    /// curve's, those subscribed to by name included.
    pub(crate) fn unsubscribe(&mut self, peer: &Peer, curve: &Curve, tenor: &str, now: Micros) {
        let names: Vec<KeyName> = peer
            .keys()
            .keys()
            .filter(|name| name.0 == curve.index && (tenor == ALL_TENORS || name.1 == tenor))
            .cloned()
            .collect();
        for name in names {
            self.remove(peer, &name, now);
        }
    }

    fn remove(&mut self, peer: &Peer, name: &KeyName, now: Micros) {
        let has_keys = {
            let mut keys = peer.keys();
            if let Some(key) = keys.remove(name) {
                peer.outbox.update(|o| o.unsubscribe(key.id));
            }
            !keys.is_empty()
        };
        peer.keys_changed(now, has_keys);
        if let Some(subscribed) = self.keys.get_mut(name) {
            subscribed.subscribers.remove(&peer.id);
            if subscribed.subscribers.is_empty() {
                self.keys.remove(name);
            }
        }
    }

    fn new_key(
        &mut self,
        world: &World,
        curve: &Curve,
        name: &str,
        tenor: Option<Tenor>,
        now: Micros,
    ) -> FeedKey {
        self.next_key += 1;
        let base = match &tenor {
            Some(tenor) => price(world.seed, curve, tenor, now),
            None => curve.profile.level,
        };
        FeedKey::new(
            self.next_key,
            curve.index,
            &curve.id,
            name,
            tenor,
            now,
            base,
        )
    }
}
