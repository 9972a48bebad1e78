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
mod tests {
    use std::time::Duration;

    use super::super::tests::controls;
    use super::super::ControlError;
    use crate::faults::{Corruption, Injected, Spoil};

    const SETTLEMENTS: &str = "/v2/historical/settlements/a/Jul%2025";

    #[test]
    fn failures_count_down_on_matching_paths() {
        let controls = controls();
        let faults = &controls.state.faults;
        controls
            .fail_next(2, 429, Some("/historical"), Some(3))
            .unwrap();
        assert_eq!(faults.take("/v2/catalogue"), Injected::None);
        let failed = Injected::Fail {
            status: 429,
            retry_after: Some(3),
        };
        assert_eq!(faults.take(SETTLEMENTS), failed);
        assert_eq!(faults.take(SETTLEMENTS), failed);
        assert_eq!(faults.take(SETTLEMENTS), Injected::None);
    }

    #[test]
    fn a_failure_needs_a_count_and_an_http_status() {
        let controls = controls();
        assert_eq!(
            controls.fail_next(1, 700, None, None),
            Err(ControlError::Status(700))
        );
        assert_eq!(
            controls.fail_next(0, 503, None, None),
            Err(ControlError::ZeroCount)
        );
        assert_eq!(controls.state.faults.take("/v2/catalogue"), Injected::None);
    }

    #[test]
    fn resets_and_corruptions_spoil_the_next_responses() {
        let controls = controls();
        let faults = &controls.state.faults;
        controls.reset_next(1, None).unwrap();
        controls
            .corrupt_next(1, Some("/catalogue"), Corruption::Truncated)
            .unwrap();
        controls
            .corrupt_next(1, None, Corruption::Malformed)
            .unwrap();
        assert_eq!(faults.take(SETTLEMENTS), Injected::Spoil(Spoil::Reset));
        let truncated = Injected::Spoil(Spoil::Corrupt(Corruption::Truncated));
        assert_eq!(faults.take("/v2/catalogue"), truncated);
        let malformed = Injected::Spoil(Spoil::Corrupt(Corruption::Malformed));
        assert_eq!(faults.take(SETTLEMENTS), malformed);
        assert_eq!(faults.take(SETTLEMENTS), Injected::None);
        assert_eq!(controls.reset_next(0, None), Err(ControlError::ZeroCount));
        assert_eq!(
            controls.corrupt_next(0, None, Corruption::Truncated),
            Err(ControlError::ZeroCount)
        );
    }

    #[test]
    fn latency_is_a_number_of_seconds_and_clear_faults_removes_everything() {
        let controls = controls();
        let faults = &controls.state.faults;
        controls.set_latency(0.25).unwrap();
        assert_eq!(faults.latency(), Duration::from_millis(250));
        assert!(matches!(
            controls.set_latency(-1.0),
            Err(ControlError::Seconds {
                name: "latency",
                ..
            })
        ));
        assert_eq!(faults.latency(), Duration::from_millis(250));
        controls.fail_next(5, 503, None, None).unwrap();
        controls.reset_next(5, None).unwrap();
        controls.fail_next_job(1).unwrap();
        controls.fail_next_auth(1).unwrap();
        controls.firehose(true);
        controls.clear_faults();
        assert_eq!(faults.latency(), Duration::ZERO);
        assert_eq!(faults.take("/v2/catalogue"), Injected::None);
        assert!(!faults.take_job_failure());
        assert!(!controls.state.live.faults.take_auth_failure());
        assert!(!controls.state.live.faults.firehose());
    }
}
