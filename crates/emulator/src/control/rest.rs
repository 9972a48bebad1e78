//! Faults of the REST side: failed requests, broken and corrupted responses,
//! latency. A `path` limits a fault to requests whose path starts with it,
//! with or without the `/v2` version segment.

use super::checks::{self, at_least_one, ControlResult};
use super::Controls;
use crate::faults::Corruption;

impl Controls {
    /// The next `count` matching requests fail with `status`, with a
    /// `Retry-After` header if given. The live handshake fails only when
    /// `path` names it (`/customer/socket`).
    pub fn fail_next(
        &self,
        count: u32,
        status: u16,
        path: Option<&str>,
        retry_after: Option<u32>,
    ) -> ControlResult<()> {
        let status = checks::http_status(status)?;
        let count = at_least_one(count)?;
        self.state
            .faults
            .fail_next(count, status, path.map(str::to_owned), retry_after);
        Ok(())
    }

    /// The next `count` matching responses break off halfway through the body.
    pub fn reset_next(&self, count: u32, path: Option<&str>) -> ControlResult<()> {
        let count = at_least_one(count)?;
        self.state.faults.reset_next(count, path.map(str::to_owned));
        Ok(())
    }

    /// The next `count` matching responses arrive whole, with their status,
    /// but with a body that is not the route's JSON (see [`Corruption`]).
    pub fn corrupt_next(
        &self,
        count: u32,
        path: Option<&str>,
        kind: Corruption,
    ) -> ControlResult<()> {
        let count = at_least_one(count)?;
        self.state
            .faults
            .corrupt_next(count, path.map(str::to_owned), kind);
        Ok(())
    }

    /// Delays every response by `seconds` of real time (0 removes it).
    pub fn set_latency(&self, seconds: f64) -> ControlResult<()> {
        let latency = checks::seconds("latency", seconds)?;
        self.state.faults.set_latency(latency);
        Ok(())
    }

    /// Back to a well-behaved service: removes every pending REST, bulk and
    /// live fault, and the latency.
    pub fn clear_faults(&self) {
        self.state.faults.clear();
        self.state.live.clear_faults();
    }
}

#[cfg(test)]
#[path = "rest_tests.rs"]
mod tests;
