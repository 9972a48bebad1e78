//! An emulator of the whole service, in process, on loopback: the synthetic
//! world, its clock, accounts and licences, fault injection, the HTTP routes
//! of the interface under `/v2`, bulk files behind pre-signed URLs, and the
//! live WebSocket feed. It follows `docs/protocol.md` (at the root of the
//! repository) to the letter, and comments here cite its sections.
//! [`Controls`] (from [`Emulator::controls`]) is the control API a test
//! drives it with.

pub(crate) mod accounts;
pub(crate) mod bulk;
pub mod calendar;
pub(crate) mod clock;
mod config;
pub(crate) mod control;
pub mod faults;
mod hash;
pub mod live;
pub(crate) mod requests;
mod routes;
mod server;
mod state;
pub(crate) mod world;

pub use config::EmulatorConfig;
pub use control::{ControlError, ControlResult, Controls, Credentials, PublishedValue};
pub use server::{Emulator, StartError};
pub use state::AppState;
