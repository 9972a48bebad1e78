//! Starting and stopping the emulator on a loopback port.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::config::EmulatorConfig;
use crate::control::{checks, ControlError, Controls};
use crate::live;
use crate::routes;
use crate::state::AppState;

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
        let publisher = {
            let state = Arc::clone(&state);
            tokio::spawn(async move { live::run_publisher(state.live_parts()).await })
        };
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
