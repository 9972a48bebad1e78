//! The world of a running emulator, which a control may replace.

use std::sync::{Arc, RwLock};

use super::World;

/// Swapped whole when curves are added (`Controls::add_curves`): a request
/// works on the world it started with.
pub struct CurrentWorld {
    world: RwLock<Arc<World>>,
}

impl CurrentWorld {
    pub fn new(world: World) -> CurrentWorld {
        CurrentWorld {
            world: RwLock::new(Arc::new(world)),
        }
    }

    /// The world as it is now.
    pub fn get(&self) -> Arc<World> {
        Arc::clone(&self.world.read().expect("world lock"))
    }

    /// Replaces the world by `change` of it, one change at a time.
    pub fn change<E>(&self, change: impl FnOnce(&World) -> Result<World, E>) -> Result<(), E> {
        let mut world = self.world.write().expect("world lock");
        *world = Arc::new(change(&world)?);
        Ok(())
    }
}
