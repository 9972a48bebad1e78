//! Tokens: where they come from, when they are renewed.
//!
//! A token is read from its JWT `exp` claim and renewed a minute before it
//! expires (or, for a short-lived one, when a tenth of its life is left), and
//! once more when the service refuses it (401/403). A fixed token cannot be
//! renewed.

use std::sync::Arc;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::Utc;
use serde_json::json;
use tokio::sync::Mutex;

use super::error::{body_message, ClientError};
use super::secret::Secret;

/// A source of fresh tokens supplied by the caller (a Python callable, say).
/// Blocking; it is called off the async threads.
pub trait TokenProvider: Send + Sync {
    fn token(&self) -> Result<String, String>;
}

#[derive(Clone)]
pub enum Credentials {
    Token(Secret),
    Provider(Arc<dyn TokenProvider>),
    Login { email: String, password: Secret },
}

struct Cached {
    token: Secret,
    /// Unix seconds at which to renew, if known.
    renew_at: Option<i64>,
}

pub struct Authenticator {
    credentials: Credentials,
    cached: Mutex<Option<Cached>>,
    http: reqwest::Client,
    login_url: String,
    timeout: Duration,
}

/// The `exp` claim of a JWT, without checking the signature (the service does).
pub fn jwt_expiry(token: &str) -> Option<i64> {
    let payload = token.split('.').nth(1)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    claims.get("exp")?.as_i64()
}

fn renew_time(token: &str, now: i64) -> Option<i64> {
    let exp = jwt_expiry(token)?;
    let margin = ((exp - now) / 10).clamp(0, 60);
    Some(exp - margin)
}

impl Authenticator {
    pub fn new(
        credentials: Credentials,
        http: reqwest::Client,
        base_url: &str,
        timeout: Duration,
    ) -> Self {
        Authenticator {
            credentials,
            cached: Mutex::new(None),
            http,
            login_url: format!("{base_url}/authenticate"),
            timeout,
        }
    }

    /// Whether a refused token can be replaced by a new one.
    pub fn can_renew(&self) -> bool {
        !matches!(self.credentials, Credentials::Token(_))
    }

    /// The token to send now, fetched or renewed if needed.
    pub async fn current(&self) -> Result<Secret, ClientError> {
        let mut cached = self.cached.lock().await;
        let now = Utc::now().timestamp();
        let fresh = cached
            .as_ref()
            .is_some_and(|c| !self.can_renew() || c.renew_at.is_none_or(|at| now < at));
        if !fresh {
            let token = self.fetch().await?;
            *cached = Some(Cached {
                renew_at: renew_time(token.expose(), now),
                token,
            });
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
        let now = Utc::now().timestamp();
        *cached = Some(Cached {
            renew_at: renew_time(token.expose(), now),
            token: token.clone(),
        });
        Ok(token)
    }

    async fn fetch(&self) -> Result<Secret, ClientError> {
        log::debug!(target: "marketcurves.auth", "fetching a token");
        match &self.credentials {
            Credentials::Token(token) => Ok(token.clone()),
            Credentials::Provider(provider) => {
                let provider = Arc::clone(provider);
                let token = tokio::task::spawn_blocking(move || provider.token())
                    .await
                    .map_err(|e| ClientError::Auth(format!("token_provider failed: {e}")))?
                    .map_err(|e| ClientError::Auth(format!("token_provider failed: {e}")))?;
                if token.trim().is_empty() {
                    return Err(ClientError::Auth(
                        "token_provider returned an empty token".into(),
                    ));
                }
                Ok(Secret::new(token.trim()))
            }
            Credentials::Login { email, password } => self.login(email, password).await,
        }
    }

    async fn login(&self, email: &str, password: &Secret) -> Result<Secret, ClientError> {
        let endpoint = "POST /authenticate";
        let body = json!({ "email": email, "password": password.expose() });
        let mut last_error = String::new();
        // A few quick tries: the auth endpoint is on the way to every request.
        for attempt in 0..3u32 {
            if attempt > 0 {
                tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
            }
            let response = self
                .http
                .post(&self.login_url)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.to_string())
                .timeout(self.timeout)
                .send()
                .await;
            let response = match response {
                Ok(r) => r,
                Err(e) => {
                    last_error = format!("cannot reach the auth endpoint: {}", e.without_url());
                    continue;
                }
            };
            let status = response.status().as_u16();
            let bytes = response.bytes().await.unwrap_or_default();
            match status {
                200 => {
                    let token = serde_json::from_slice::<serde_json::Value>(&bytes)
                        .ok()
                        .and_then(|v| v.get("token")?.as_str().map(str::to_owned))
                        .ok_or_else(|| {
                            ClientError::Auth(format!("{endpoint}: the answer has no \"token\""))
                        })?;
                    return Ok(Secret::new(token));
                }
                400 | 401 | 403 => {
                    return Err(ClientError::Auth(format!(
                        "{endpoint}: login refused (HTTP {status}): {}",
                        body_message(&bytes)
                    )))
                }
                _ => last_error = format!("HTTP {status}: {}", body_message(&bytes)),
            }
        }
        Err(ClientError::Auth(format!(
            "{endpoint}: no token after 3 attempts: {last_error}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(exp: i64) -> String {
        let payload = URL_SAFE_NO_PAD.encode(format!(r#"{{"sub":"a","exp":{exp}}}"#));
        format!("eyJhbGciOiJIUzI1NiJ9.{payload}.c2ln")
    }

    #[test]
    fn reads_the_expiry_of_a_jwt() {
        assert_eq!(jwt_expiry(&jwt(1_750_000_000)), Some(1_750_000_000));
        assert_eq!(jwt_expiry("not-a-jwt"), None);
        assert_eq!(jwt_expiry("a.!!!.c"), None);
    }

    #[test]
    fn renews_a_minute_early_or_at_the_last_tenth_of_a_short_life() {
        let now = 1_000_000;
        assert_eq!(renew_time(&jwt(now + 43_200), now), Some(now + 43_200 - 60));
        assert_eq!(renew_time(&jwt(now + 100), now), Some(now + 90));
        assert_eq!(renew_time(&jwt(now - 5), now), Some(now - 5));
        assert_eq!(renew_time("opaque", now), None);
    }
}
