//! Tokens: where they come from, when they are renewed.
//!
//! A token is read from its JWT `exp` claim and renewed a minute before it
//! expires (or, for a short-lived one, when a tenth of its life is left), and
//! once more when the service refuses it (401/403). A fixed token cannot be
//! renewed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::Utc;
use serde_json::json;
use tokio::sync::Mutex;

use super::send::Sender;
use domain::redact::redact_url;
use places::digest::digest;
use places::error::{body_message, ClientError};
use places::{AuthReason, Secret};

/// A source of fresh tokens supplied by the caller (a Python callable, say).
/// Blocking; it is called off the async threads.
pub trait TokenProvider: Send + Sync {
    /// A token; a failure is a [`ClientError::Auth`] or, when the provider
    /// raised, a [`ClientError::TokenProvider`] that keeps what it raised.
    fn token(&self) -> Result<String, ClientError>;
}

#[derive(Clone)]
pub enum Credentials {
    Token(Secret),
    Provider(Arc<dyn TokenProvider>),
    Login { email: String, password: Secret },
}

struct Cached {
    token: Secret,
    /// When to renew, if the token says how long it lives.
    renew_at: Option<Instant>,
}

pub struct Authenticator {
    credentials: Credentials,
    cached: Mutex<Option<Cached>>,
    sender: Sender,
    login_url: String,
}

/// The `iat` and `exp` claims of a JWT, without checking the signature (the service does).
pub fn jwt_times(token: &str) -> Option<(Option<i64>, i64)> {
    let payload = token.split('.').nth(1)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let iat = claims.get("iat").and_then(|v| v.as_i64());
    Some((iat, claims.get("exp")?.as_i64()?))
}

/// The account a JWT names (its `sub` claim, else `email`), unchecked.
pub fn jwt_account(token: &str) -> Option<String> {
    let payload = token.split('.').nth(1)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    ["sub", "email"]
        .iter()
        .find_map(|claim| claims.get(claim)?.as_str().map(str::to_owned))
        .filter(|name| !name.trim().is_empty())
}

/// An account's name as the cache keys it: an email in any case is one account.
fn account_name(name: &str) -> String {
    let name = name.trim();
    if name.contains('@') {
        format!("account:{}", name.to_lowercase())
    } else {
        format!("account:{name}")
    }
}

/// How long a token fetched at Unix time `now` should be used: its lifetime
/// (`exp - iat`, so a clock that differs from the service's does not matter)
/// less a minute, or less a tenth of it if it is short. None when the token
/// does not say, or already looks expired: then only a refusal renews it.
fn usable_for(token: &str, now: i64) -> Option<Duration> {
    let (iat, exp) = jwt_times(token)?;
    let lifetime = match iat {
        Some(iat) if exp > iat => exp - iat,
        _ => exp - now,
    };
    if lifetime <= 0 {
        return None;
    }
    let margin = (lifetime / 10).clamp(0, 60);
    Some(Duration::from_secs((lifetime - margin) as u64))
}

fn cache(token: Secret) -> Cached {
    let usable = usable_for(token.expose(), Utc::now().timestamp());
    Cached {
        renew_at: usable.map(|d| Instant::now() + d),
        token,
    }
}

impl Authenticator {
    pub fn new(credentials: Credentials, sender: Sender, base_url: &str) -> Self {
        Authenticator {
            credentials,
            cached: Mutex::new(None),
            sender,
            login_url: format!("{base_url}/authenticate"),
        }
    }

    /// Whether a refused token can be replaced by a new one.
    pub fn can_renew(&self) -> bool {
        !matches!(self.credentials, Credentials::Token(_))
    }

    /// The token to send now, fetched or renewed if needed.
    pub async fn current(&self) -> Result<Secret, ClientError> {
        let mut cached = self.cached.lock().await;
        let now = Instant::now();
        let fresh = cached
            .as_ref()
            .is_some_and(|c| !self.can_renew() || c.renew_at.is_none_or(|at| now < at));
        if !fresh {
            *cached = Some(cache(self.fetch().await?));
        }
        Ok(cached.as_ref().expect("just set").token.clone())
    }

    /// Replaces `refused` by a new token, unless another request already did.
    pub async fn renew(&self, refused: &Secret) -> Result<Secret, ClientError> {
        let mut cached = self.cached.lock().await;
        if let Some(c) = cached.as_ref() {
            if &c.token != refused {
                return Ok(c.token.clone());
            }
        }
        let token = self.fetch().await?;
        *cached = Some(cache(token.clone()));
        Ok(token)
    }

    /// A token fetched from the source now, whatever the cache holds (the
    /// live feed needs a new one for every authentication); a fixed token is
    /// simply that token. The cache keeps it for REST calls.
    pub async fn fresh(&self) -> Result<Secret, ClientError> {
        let mut cached = self.cached.lock().await;
        let token = self.fetch().await?;
        *cached = Some(cache(token.clone()));
        Ok(token)
    }

    /// The account these credentials act for, as a stable name: the email
    /// of a login, or the account the token names (a token provider is
    /// asked for one), so that a login and a token of one account share it;
    /// else a digest of the token itself, which is then its own account.
    /// Never the token.
    pub async fn account(&self) -> Result<String, ClientError> {
        let token = match &self.credentials {
            Credentials::Login { email, .. } => return Ok(account_name(email)),
            Credentials::Token(token) => token.clone(),
            Credentials::Provider(_) => self.current().await?,
        };
        Ok(match jwt_account(token.expose()) {
            Some(name) => account_name(&name),
            None => format!("token:{}", &digest(token.expose())[..16]),
        })
    }

    async fn fetch(&self) -> Result<Secret, ClientError> {
        log::debug!(target: "marketcurves.auth", "fetching a token");
        match &self.credentials {
            Credentials::Token(token) => Ok(token.clone()),
            Credentials::Provider(provider) => {
                let provider = Arc::clone(provider);
                let token = tokio::task::spawn_blocking(move || provider.token())
                    .await
                    .map_err(|e| {
                        ClientError::auth(AuthReason::ProviderFailed, None, e.to_string())
                    })??;
                if token.trim().is_empty() {
                    return Err(ClientError::auth(AuthReason::ProviderEmpty, None, ""));
                }
                // It goes into a header: a control character would make every
                // request unsendable, and retried in vain.
                if token.trim().chars().any(char::is_control) {
                    let reason = AuthReason::ProviderControlCharacters;
                    return Err(ClientError::auth(reason, None, ""));
                }
                Ok(Secret::new(token.trim()))
            }
            Credentials::Login { email, password } => self.login(email, password).await,
        }
    }

    async fn login(&self, email: &str, password: &Secret) -> Result<Secret, ClientError> {
        let endpoint = "POST /authenticate";
        let body = json!({ "email": email, "password": password.expose() }).to_string();
        let request = |client: &reqwest::Client| {
            client
                .post(&self.login_url)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone())
        };
        let answer = self.sender.send(endpoint, "/authenticate", request).await?;
        if answer.status == 404 {
            // Not a refused password: no login endpoint there at all.
            return Err(ClientError::auth(
                AuthReason::NoLoginEndpoint,
                Some(endpoint.into()),
                redact_url(&self.login_url),
            ));
        }
        if !(200..300).contains(&answer.status) {
            return Err(ClientError::auth(
                AuthReason::LoginRefused {
                    status: answer.status,
                },
                Some(endpoint.into()),
                body_message(&answer.body),
            ));
        }
        serde_json::from_slice::<serde_json::Value>(&answer.body)
            .ok()
            .and_then(|v| v.get("token")?.as_str().map(Secret::new))
            .ok_or_else(|| ClientError::auth(AuthReason::NoToken, Some(endpoint.into()), ""))
    }
}

#[cfg(test)]
#[path = "auth_tests.rs"]
mod tests;
