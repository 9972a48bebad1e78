//! Starting and stopping the emulator on a loopback port.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::serve::ListenerExt;
use chrono::{DateTime, Utc};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::accounts::Accounts;
use super::bulk::Bulk;
use super::calendar::{Calendar, EarlyClose};
use super::clock::Clock;
use super::control::{checks, ControlError, Controls};
use super::faults::Faults;
use super::live::{self, Live};
use super::requests::Requests;
use super::routes;
use super::world::World;

#[derive(Clone, Debug)]
pub struct EmulatorConfig {
    pub seed: u64,
    /// Emulated seconds per real second; 0 stops the clock.
    pub time_scale: f64,
    /// Where the clock starts; `None` is the real time.
    pub start: Option<DateTime<Utc>>,
    pub early_close: EarlyClose,
    /// Port 0 picks a free one.
    pub bind: SocketAddr,
}

impl Default for EmulatorConfig {
    fn default() -> Self {
        EmulatorConfig {
            seed: 0,
            time_scale: 1.0,
            start: None,
            early_close: EarlyClose::ChristmasAndNewYearsEve,
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        }
    }
}

impl EmulatorConfig {
    /// A clock that stands still at `start` (tests that must not race it).
    pub fn stopped_at(start: DateTime<Utc>) -> EmulatorConfig {
        EmulatorConfig {
            time_scale: 0.0,
            start: Some(start),
            ..EmulatorConfig::default()
        }
    }
}

/// Everything the routes share.
pub struct AppState {
    /// Swapped whole when curves are added (`Controls::add_curves`): a
    /// request works on the world it started with.
    world: RwLock<Arc<World>>,
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
            world: RwLock::new(Arc::new(World::new(
                config.seed,
                Calendar::new(config.early_close.clone()),
            ))),
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
        Arc::clone(&self.world.read().expect("world lock"))
    }

    /// Replaces the world by `change` of it, one change at a time.
    pub(crate) fn change_world<E>(
        &self,
        change: impl FnOnce(&World) -> Result<World, E>,
    ) -> Result<(), E> {
        let mut world = self.world.write().expect("world lock");
        *world = Arc::new(change(&world)?);
        Ok(())
    }
}

/// Why an emulator did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] ControlError),
    #[error("cannot start the emulator on port {port}: {source}")]
    Bind { port: u16, source: io::Error },
}

/// A running emulator. Dropping it stops the server.
pub struct Emulator {
    addr: SocketAddr,
    state: Arc<AppState>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<io::Result<()>>>,
    publisher: JoinHandle<()>,
}

impl Emulator {
    /// Binds the port and serves on the current tokio runtime.
    /// The configuration is checked before anything binds.
    pub async fn start(config: EmulatorConfig) -> Result<Emulator, StartError> {
        checks::time_scale(config.time_scale)?;
        let bind_error = |source| StartError::Bind {
            port: config.bind.port(),
            source,
        };
        let listener = TcpListener::bind(config.bind).await.map_err(bind_error)?;
        let addr = listener.local_addr().map_err(bind_error)?;
        let state = Arc::new(AppState::new(&config));
        let publisher = tokio::spawn(live::run_publisher(Arc::clone(&state)));
        let app = routes::router(Arc::clone(&state));
        let (shutdown, stopped) = oneshot::channel::<()>();
        // A feed pushes small frames one after another: with Nagle's
        // algorithm on, each waits for the reader's delayed acknowledgement
        // of the one before (40 ms on Linux), a delay no market data server
        // would allow.
        let listener = listener.tap_io(|stream| {
            let _ = stream.set_nodelay(true);
        });
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
        });
        Ok(Emulator {
            addr,
            state,
            shutdown: Some(shutdown),
            task: Some(task),
            publisher,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port>/v2`, the REST base address.
    pub fn base_url(&self) -> String {
        format!("http://{}/v2", self.addr)
    }

    /// `ws://127.0.0.1:<port>`, the live feed base address.
    pub fn live_url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// The control API: faults, the clock, accounts, and what the world holds.
    pub fn controls(&self) -> Controls {
        Controls::new(Arc::clone(&self.state))
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The state, to keep controlling clock, accounts and faults from elsewhere.
    pub fn shared_state(&self) -> Arc<AppState> {
        Arc::clone(&self.state)
    }

    /// Stops accepting connections, drops the live ones and waits (up to
    /// 2 s) for open requests to end.
    pub async fn stop(&mut self) {
        self.state.live.shutdown();
        self.publisher.abort();
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(mut task) = self.task.take() {
            if tokio::time::timeout(Duration::from_secs(2), &mut task)
                .await
                .is_err()
            {
                task.abort();
            }
        }
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.state.live.shutdown();
        self.publisher.abort();
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
