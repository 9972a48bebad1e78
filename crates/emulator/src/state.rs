//! The state every route, live connection and control shares: the world and
//! the parts of the emulator that act on it (clock, accounts, faults, bulk
//! files and jobs, the live feed's hub, the requests received). It knows
//! none of the behaviours that use it, which sit above it.

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::bulk::Bulk;
use crate::calendar::Calendar;
use crate::clock::Clock;
use crate::config::EmulatorConfig;
use crate::faults::Faults;
use crate::live::{self, Live};
use crate::requests::Requests;
use crate::world::{CurrentWorld, World};

/// Everything the routes share.
pub struct AppState {
    world: CurrentWorld,
    pub clock: Clock,
    pub accounts: Accounts,
    pub faults: Faults,
    pub bulk: Bulk,
    pub live: Live,
    pub requests: Requests,
}

impl AppState {
    /// The state of a new emulator, before it serves.
    pub(crate) fn new(config: &EmulatorConfig) -> AppState {
        let clock = Clock::new(config.start, config.time_scale);
        AppState {
            world: CurrentWorld::new(World::new(
                config.seed,
                Calendar::new(config.early_close.clone()),
            )),
            live: Live::new(clock.now()),
            clock,
            accounts: Accounts::new(config.seed),
            faults: Faults::default(),
            bulk: Bulk::new(config.seed),
            requests: Requests::default(),
        }
    }

    /// The world as it is now.
    pub fn world(&self) -> Arc<World> {
        self.world.get()
    }

    /// Replaces the world by `change` of it, one change at a time.
    pub(crate) fn change_world<E>(
        &self,
        change: impl FnOnce(&World) -> Result<World, E>,
    ) -> Result<(), E> {
        self.world.change(change)
    }

    /// What the live feed works with: its own part, the clock, the accounts
    /// and the world.
    pub(crate) fn live_parts(&self) -> live::Parts<'_> {
        live::Parts {
            live: &self.live,
            clock: &self.clock,
            accounts: &self.accounts,
            world: &self.world,
        }
    }
}
