//! Whether an account may be served a curve from a cache that accounts
//! share. A store's cache keeps the history by service, not by account
//! (`layout`), so one account's pull serves another's; a curve the service
//! refuses to an account must never reach it that way.
//!
//! The rule, before any cached day of a curve is read from a shared cache:
//!
//! - the account must have been confirmed for the curve by the service
//!   within the remembered time (`licence_memory::ttl`, 12 hours): in this
//!   session, or on this machine (`licence_memory`);
//! - if it was not, the client asks: one `GET /ongoing/last-settlement/
//!   <curve_id>`, the cheapest request whose answer cannot be mistaken
//!   (200: the account may read the curve; 403: it may not; 404: no such
//!   curve). The one-tenor form would be cheaper, but answers 404 whenever
//!   the day's settlement is not yet published (most of the day, and every
//!   weekend), which says nothing of the licence; the historical endpoints
//!   would count as a pull of history. The catalogue gives no licence flag
//!   in the interface;
//! - a refusal (`AccessDenied`), to that question or to any request of the
//!   call, is remembered and raised: the cached rows are never served;
//! - offline, only a curve confirmed within the remembered time is served;
//!   one refused within it is `AccessDenied`, and one the account was never
//!   (or too long ago) confirmed for is a `CacheMiss`: the client cannot
//!   tell whether the account may read it, and the remedy is that of every
//!   miss, a call online.
//!
//! So a curve costs one request per session at most, none while the
//! machine remembers it, and a licence withdrawn is honoured within the
//! remembered time. A folder cache is the account's own: it fetched every
//! row it holds, and nothing is asked.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::NaiveDate;

use super::licence_memory::{ttl, Answer, Memory};
use super::through::{Call, Through};
use super::CacheMode;
use crate::rest::paths::price_path;
use domain::decode::PriceEndpoint;
use domain::tenor::Tenor;
use places::ClientError;

/// What one client knows of its account's licence, curve by curve.
#[derive(Debug)]
pub struct Licences {
    session: Mutex<HashMap<String, Answer>>,
    machine: Memory,
    /// One question at a time, so that calls of one curve at once ask once.
    asking: tokio::sync::Mutex<()>,
}

impl Licences {
    /// The licences of `account` at the service at `base_url`.
    pub fn of(base_url: &str, account: &str) -> Licences {
        Licences::remembered_in(Memory::of(base_url, account))
    }

    pub(super) fn remembered_in(machine: Memory) -> Licences {
        Licences {
            session: Mutex::new(HashMap::new()),
            machine,
            asking: tokio::sync::Mutex::new(()),
        }
    }

    /// The answer about `curve_id` still trusted: the session's, else the
    /// machine's.
    pub(super) fn known(&self, curve_id: &str) -> Option<Answer> {
        let ttl = ttl();
        let mut session = self.session.lock().expect("licences lock");
        if let Some(answer) = session.get(curve_id).filter(|a| a.fresh(ttl)) {
            return Some(*answer);
        }
        let answer = self.machine.get(curve_id).filter(|a| a.fresh(ttl))?;
        session.insert(curve_id.to_owned(), answer);
        Some(answer)
    }

    /// Notes the service's answer about `curve_id`, in the session and on
    /// the machine (a file of a few hundred bytes, written at most once
    /// per curve per session: not worth a thread of its own).
    pub(super) fn note(&self, curve_id: &str, licensed: bool) {
        let answer = Answer::now(licensed);
        let mut session = self.session.lock().expect("licences lock");
        session.insert(curve_id.to_owned(), answer);
        drop(session);
        self.machine.put(curve_id, answer);
    }

    /// Notes that the service served `curve_id` to the account (a fetch
    /// of the call), unless that is known already.
    pub(super) fn served(&self, curve_id: &str) {
        if !self.known(curve_id).is_some_and(|a| a.licensed) {
            self.note(curve_id, true);
        }
    }
}

impl Through<'_> {
    /// Ok if this client's account may be served `call`'s curve from the
    /// cache (see the module's doc); `tenors` name the days an offline
    /// call lacks when it may not.
    pub(super) async fn may_serve(
        &self,
        call: &Call<'_>,
        tenors: &[Tenor],
    ) -> Result<(), ClientError> {
        let Some(licences) = &self.dirs.licences else {
            // A folder's history is the account's own: it fetched it.
            return Ok(());
        };
        let curve_id = call.curve_id;
        let _asking = licences.asking.lock().await;
        match (licences.known(curve_id), call.mode) {
            (Some(answer), _) if answer.licensed => return Ok(()),
            (Some(_), CacheMode::Offline) => return Err(refused_offline(curve_id)),
            (None, CacheMode::Offline) => return Err(unconfirmed(call, tenors)),
            // A refusal is asked again online: a licence may be granted.
            _ => {}
        }
        let endpoint = PriceEndpoint::LastSettlementAll;
        let path = price_path(endpoint, curve_id, None);
        match self
            .service
            .http()
            .get(endpoint.describe(), &path, &[])
            .await
        {
            Ok(_) => {
                licences.note(curve_id, true);
                Ok(())
            }
            Err(e @ ClientError::AccessDenied { .. }) => {
                licences.note(curve_id, false);
                Err(e)
            }
            Err(e) => Err(e),
        }
    }

    /// Notes what a call's own requests said of the licence: a refusal
    /// (never served from the cache after), or days served.
    pub(super) fn heard(&self, curve_id: &str, result: Result<bool, &ClientError>) {
        let Some(licences) = &self.dirs.licences else {
            return;
        };
        match result {
            Err(ClientError::AccessDenied { .. }) => licences.note(curve_id, false),
            Ok(true) => licences.served(curve_id),
            _ => {}
        }
    }
}

fn refused_offline(curve_id: &str) -> ClientError {
    ClientError::AccessDenied {
        endpoint: "cache".into(),
        message: format!(
            "the service refused curve {curve_id} to this account; \
             a shared cache does not serve it, even offline"
        ),
        subscription: None,
    }
}

/// Offline, a curve the account was not confirmed for: every day asked
/// is one the cache cannot serve it.
fn unconfirmed(call: &Call<'_>, tenors: &[Tenor]) -> ClientError {
    let days: Vec<(NaiveDate, NaiveDate)> = vec![(call.start, call.end)];
    ClientError::CacheMiss {
        message: format!(
            "offline, and this account was not confirmed for curve {} on this machine \
             in the last {} s: a shared cache serves a curve only to an account the \
             service lets read it; one call online confirms it",
            call.curve_id,
            ttl().as_secs()
        ),
        curve_id: Some(call.curve_id.to_owned()),
        missing: tenors
            .iter()
            .map(|t| (t.name().to_owned(), days.clone()))
            .collect(),
        advice: None,
    }
}

#[cfg(test)]
#[path = "licence_tests.rs"]
mod tests;
