//! An emulator of the whole service, in process, on loopback: the synthetic
//! world, its clock, accounts and licences, fault injection, the HTTP routes
//! of the interface under `/v2`, and bulk files behind pre-signed URLs.

pub mod accounts;
pub mod bulk;
pub mod calendar;
pub mod clock;
pub mod faults;
mod hash;
mod routes;
mod server;
pub mod world;

pub use server::{AppState, Emulator, EmulatorConfig};
