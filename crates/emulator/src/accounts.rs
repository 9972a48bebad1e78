//! Accounts, licences and the HS256 JWTs the emulator issues.
//!
//! Tokens are valid 12 hours on the emulator's clock. Expiring every token at
//! once (a fault control) bumps a generation number that tokens carry.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::hash::{combine, mix};
use domain::month::Month;
use domain::timestamp::Micros;

pub(crate) const TOKEN_LIFETIME_SECONDS: i64 = 12 * 3600;

/// The account `Emulator.credentials` and `Emulator.token()` use: every
/// quotation except `Sales`, which is outside its licence, and bulk history
/// from [`DEMO_BULK_START`] only.
pub(crate) const DEMO_EMAIL: &str = "demo@marketcurves.test";
pub(crate) const DEMO_PASSWORD: &str = "demo-password";
/// An account licensed for everything.
pub(crate) const FULL_EMAIL: &str = "full@marketcurves.test";
pub(crate) const FULL_PASSWORD: &str = "full-password";
/// An account licensed for every quotation over REST and bulk download, but
/// not enabled for live data: its live subscriptions get `NO_ACCESS`.
pub(crate) const REST_ONLY_EMAIL: &str = "rest-only@marketcurves.test";
pub(crate) const REST_ONLY_PASSWORD: &str = "rest-only-password";
/// The first month of the demo account's bulk licence (`YYYY-MM`).
pub(crate) const DEMO_BULK_START: &str = "2024-03";

#[derive(Clone, Debug)]
pub struct Licence {
    /// Revoked entirely: every data request is refused.
    pub revoked: bool,
    /// Quotation names outside the licence.
    pub denied_quotations: BTreeSet<String>,
    /// The first month bulk download may cover; `None` is all history.
    pub bulk_start: Option<Month>,
    /// Enabled for the live feed (docs/protocol.md#authentication).
    pub live: bool,
}

/// Everything: every quotation, all bulk history, the live feed.
impl Default for Licence {
    fn default() -> Licence {
        Licence {
            revoked: false,
            denied_quotations: BTreeSet::new(),
            bulk_start: None,
            live: true,
        }
    }
}

impl Licence {
    pub fn allows(&self, quotation: &str) -> bool {
        !self.revoked && !self.denied_quotations.contains(quotation)
    }

    /// Whether a live subscription to `quotation` is allowed.
    pub fn allows_live(&self, quotation: &str) -> bool {
        self.live && self.allows(quotation)
    }
}

struct Account {
    password: String,
    licence: Licence,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("missing bearer token")]
    Missing,
    #[error("invalid token")]
    Invalid,
    #[error("token expired")]
    Expired,
}

#[derive(Serialize, Deserialize)]
struct Claims {
    sub: String,
    iat: i64,
    exp: i64,
    gen: u64,
    jti: String,
}

pub struct Accounts {
    secret: [u8; 32],
    generation: AtomicU64,
    issued: AtomicU64,
    accounts: RwLock<BTreeMap<String, Account>>,
}

impl Accounts {
    pub fn new(seed: u64) -> Accounts {
        let mut secret = [0u8; 32];
        for (i, chunk) in secret.chunks_mut(8).enumerate() {
            chunk.copy_from_slice(&mix(combine(&[seed, 0x5EC2E7, i as u64])).to_le_bytes());
        }
        let demo = Licence {
            denied_quotations: ["Sales".to_owned()].into(),
            bulk_start: Month::parse(DEMO_BULK_START),
            ..Licence::default()
        };
        let rest_only = Licence {
            live: false,
            ..Licence::default()
        };
        let accounts = [
            (DEMO_EMAIL, DEMO_PASSWORD, demo),
            (FULL_EMAIL, FULL_PASSWORD, Licence::default()),
            (REST_ONLY_EMAIL, REST_ONLY_PASSWORD, rest_only),
        ]
        .into_iter()
        .map(|(email, password, licence)| {
            let account = Account {
                password: password.to_owned(),
                licence,
            };
            (email.to_owned(), account)
        })
        .collect();
        Accounts {
            secret,
            generation: AtomicU64::new(0),
            issued: AtomicU64::new(0),
            accounts: RwLock::new(accounts),
        }
    }

    /// A token for the account if the password is right.
    pub fn login(&self, email: &str, password: &str, now: Micros) -> Option<String> {
        let known = self.accounts.read().expect("accounts lock");
        let account = known.get(email)?;
        let matches = account.password.as_bytes() == password.as_bytes();
        drop(known);
        matches.then(|| self.issue(email, now))
    }

    /// A token for `email`, valid 12 hours from `now`.
    pub fn issue(&self, email: &str, now: Micros) -> String {
        let iat = now.div_euclid(1_000_000);
        let claims = Claims {
            sub: email.to_owned(),
            iat,
            exp: iat + TOKEN_LIFETIME_SECONDS,
            gen: self.generation.load(Ordering::SeqCst),
            jti: self.issued.fetch_add(1, Ordering::SeqCst).to_string(),
        };
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).expect("claims"));
        let signing_input = format!("{header}.{payload}");
        let signature = URL_SAFE_NO_PAD.encode(self.sign(signing_input.as_bytes()));
        format!("{signing_input}.{signature}")
    }

    /// The account a token belongs to, if the token is genuine and current.
    pub fn verify(&self, token: &str, now: Micros) -> Result<String, TokenError> {
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(TokenError::Invalid);
        };
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| TokenError::Invalid)?;
        let mut mac = self.mac();
        mac.update(format!("{header}.{payload}").as_bytes());
        mac.verify_slice(&signature)
            .map_err(|_| TokenError::Invalid)?;
        let claims: Claims = URL_SAFE_NO_PAD
            .decode(payload)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or(TokenError::Invalid)?;
        let expired = claims.exp <= now.div_euclid(1_000_000);
        if expired || claims.gen != self.generation.load(Ordering::SeqCst) {
            return Err(TokenError::Expired);
        }
        Ok(claims.sub)
    }

    /// Every token issued so far stops working.
    pub fn expire_all(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    pub fn licence(&self, email: &str) -> Licence {
        let accounts = self.accounts.read().expect("accounts lock");
        accounts
            .get(email)
            .map(|a| a.licence.clone())
            .unwrap_or(Licence {
                revoked: true,
                live: false,
                ..Licence::default()
            })
    }

    /// Takes a quotation (or, with `None`, everything) out of an account's
    /// licence. False if there is no such account.
    pub fn revoke(&self, email: &str, quotation: Option<&str>) -> bool {
        let mut accounts = self.accounts.write().expect("accounts lock");
        let Some(account) = accounts.get_mut(email) else {
            return false;
        };
        match quotation {
            Some(q) => {
                account.licence.denied_quotations.insert(q.to_owned());
            }
            None => account.licence.revoked = true,
        }
        true
    }

    /// Takes the live feed out of an account's licence: later live
    /// subscriptions get `NO_ACCESS`. False if there is no such account.
    pub fn revoke_live(&self, email: &str) -> bool {
        let mut accounts = self.accounts.write().expect("accounts lock");
        let Some(account) = accounts.get_mut(email) else {
            return false;
        };
        account.licence.live = false;
        true
    }

    /// Gives an account its full licence back (the live feed included).
    pub fn restore(&self, email: &str) -> bool {
        let mut accounts = self.accounts.write().expect("accounts lock");
        let Some(account) = accounts.get_mut(email) else {
            return false;
        };
        account.licence = Licence::default();
        true
    }

    fn mac(&self) -> Hmac<Sha256> {
        Hmac::<Sha256>::new_from_slice(&self.secret).expect("any key length")
    }

    fn sign(&self, input: &[u8]) -> Vec<u8> {
        let mut mac = self.mac();
        mac.update(input);
        mac.finalize().into_bytes().to_vec()
    }
}

#[cfg(test)]
#[path = "accounts_tests.rs"]
mod tests;
