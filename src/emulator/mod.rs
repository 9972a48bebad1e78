//! An emulator of the whole service, in process, on loopback: the synthetic
//! world, its clock, accounts and licences, fault injection, and the HTTP
//! routes of the interface under `/v2`.

pub mod accounts;
pub mod calendar;
pub mod clock;
pub mod faults;
mod hash;
pub mod month;
mod routes;
mod server;
pub mod world;

pub use server::{AppState, Emulator, EmulatorConfig};
