//! The emulator's control API: every fault a test can inject and every
//! question it can ask of the emulated world, one method each, with its
//! arguments checked here. The Python `EmulatorServer` binds these methods
//! one for one, under the same names.
//!
//! - this file: [`Controls`], the clock and the accounts;
//! - `rest`, `bulk`, `live`: the faults of each side of the service;
//! - `catalogue`: more curves in a vertical (and so bigger bulk files);
//! - `queries`: what the world holds (bulk file rows, published values);
//! - `requests`: what reached the REST side (the requests received);
//! - `checks`: the value rules and [`ControlError`].

mod bulk;
mod catalogue;
pub(crate) mod checks;
mod live;
mod queries;
mod requests;
mod rest;

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::accounts::{DEMO_EMAIL, DEMO_PASSWORD};
use crate::state::AppState;
pub use checks::{ControlError, ControlResult};
pub use queries::PublishedValue;

/// A handle on a running emulator's state; cheap to clone, and it stays
/// usable (doing nothing visible) after the server stopped.
#[derive(Clone)]
pub struct Controls {
    state: Arc<AppState>,
}

/// The login of the demo account, for `POST /authenticate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Credentials {
    pub email: &'static str,
    pub password: &'static str,
}

/// Controls that name an account default to the demo account.
fn account(email: Option<&str>) -> &str {
    email.unwrap_or(DEMO_EMAIL)
}

impl Controls {
    pub(crate) fn new(state: Arc<AppState>) -> Controls {
        Controls { state }
    }

    // The clock.

    /// The emulator's current time.
    pub fn now(&self) -> DateTime<Utc> {
        self.state.clock.now_utc()
    }

    /// Moves the clock to `to`; it keeps its speed.
    pub fn set_time(&self, to: DateTime<Utc>) {
        self.state.clock.set(to.timestamp_micros());
    }

    /// Moves the clock forward by `seconds` (back, if negative).
    pub fn advance(&self, seconds: f64) -> ControlResult<()> {
        if !seconds.is_finite() {
            return Err(ControlError::NotFinite("seconds"));
        }
        self.state.clock.advance((seconds * 1e6) as i64);
        Ok(())
    }

    /// Emulated seconds per real second.
    pub fn time_scale(&self) -> f64 {
        self.state.clock.scale()
    }

    /// Changes the clock's speed from now on; 0 stops it.
    pub fn set_time_scale(&self, time_scale: f64) -> ControlResult<()> {
        self.state.clock.set_scale(checks::time_scale(time_scale)?);
        Ok(())
    }

    // Accounts.

    /// The demo account's login.
    pub fn credentials(&self) -> Credentials {
        Credentials {
            email: DEMO_EMAIL,
            password: DEMO_PASSWORD,
        }
    }

    /// A fresh token, valid 12 hours on the emulator's clock, for an account
    /// (default: the demo account).
    pub fn token(&self, email: Option<&str>) -> String {
        self.state
            .accounts
            .issue(account(email), self.state.clock.now())
    }

    /// Every token issued so far stops working.
    pub fn expire_tokens(&self) {
        self.state.accounts.expire_all();
    }

    /// Takes `quotation` (or, with `None`, everything) out of an account's
    /// licence (default: the demo account).
    pub fn revoke_licence(
        &self,
        email: Option<&str>,
        quotation: Option<&str>,
    ) -> ControlResult<()> {
        let email = account(email);
        known(email, self.state.accounts.revoke(email, quotation))
    }

    /// Gives an account (default: the demo account) a licence for everything,
    /// the live feed included.
    pub fn restore_licence(&self, email: Option<&str>) -> ControlResult<()> {
        let email = account(email);
        known(email, self.state.accounts.restore(email))
    }

    /// Takes the live feed out of an account's licence (default: the demo
    /// account): its later subscriptions get `NO_ACCESS`.
    pub fn revoke_live(&self, email: Option<&str>) -> ControlResult<()> {
        let email = account(email);
        known(email, self.state.accounts.revoke_live(email))
    }
}

/// An account control's answer: whether the account exists.
fn known(email: &str, exists: bool) -> ControlResult<()> {
    if exists {
        Ok(())
    } else {
        Err(ControlError::UnknownAccount(email.to_owned()))
    }
}

#[cfg(test)]
pub(crate) mod tests;
