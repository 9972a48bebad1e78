//! One pooled HTTP client for every REST call: bearer token, bounded
//! concurrency, timeouts, retries, and errors that name the endpoint.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use chrono::Utc;
use reqwest::header::RETRY_AFTER;
use reqwest::redirect;
use tokio::sync::Semaphore;

use super::auth::{Authenticator, Credentials};
use super::error::{body_message, ClientError};
use super::retry::{parse_retry_after, Outcome, RetryPolicy};

#[derive(Clone)]
pub struct HttpConfig {
    /// Ends in the version segment, without a trailing slash.
    pub base_url: String,
    pub credentials: Credentials,
    pub max_concurrency: usize,
    /// For one attempt: connecting, sending and reading the whole body.
    pub timeout: Duration,
    pub max_retries: u32,
}

pub struct Http {
    client: reqwest::Client,
    auth: Authenticator,
    limit: Arc<Semaphore>,
    policy: RetryPolicy,
    timeout: Duration,
    base_url: String,
}

/// Redirects are followed only within the same host, so the bearer token
/// never travels to another one.
fn same_host_redirects() -> redirect::Policy {
    redirect::Policy::custom(|attempt| {
        let same_host = attempt
            .previous()
            .first()
            .is_some_and(|first| first.host_str() == attempt.url().host_str());
        if attempt.previous().len() >= 5 || !same_host {
            attempt.stop()
        } else {
            attempt.follow()
        }
    })
}

/// A question mark and the encoded pairs, or nothing.
pub fn query_string(query: &[(&str, String)]) -> String {
    if query.is_empty() {
        return String::new();
    }
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    for (key, value) in query {
        serializer.append_pair(key, value);
    }
    format!("?{}", serializer.finish())
}

impl Http {
    pub fn new(config: HttpConfig) -> Result<Http, ClientError> {
        let client = reqwest::Client::builder()
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .pool_max_idle_per_host(config.max_concurrency)
            .redirect(same_host_redirects())
            .user_agent(concat!("marketcurves/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| {
                ClientError::InvalidRequest(format!("cannot build the HTTP client: {e}"))
            })?;
        let auth = Authenticator::new(
            config.credentials,
            client.clone(),
            &config.base_url,
            config.timeout,
        );
        Ok(Http {
            client,
            auth,
            limit: Arc::new(Semaphore::new(config.max_concurrency)),
            policy: RetryPolicy {
                max_retries: config.max_retries,
                ..RetryPolicy::default()
            },
            timeout: config.timeout,
            base_url: config.base_url,
        })
    }

    /// GETs `path` (relative to the base URL, already percent-encoded) and
    /// returns the body of a 2xx answer. `endpoint` names it in errors.
    pub async fn get(
        &self,
        endpoint: &str,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Bytes, ClientError> {
        let url = format!("{}{path}{}", self.base_url, query_string(query));
        let mut retries = 0;
        let mut renewed = false;
        loop {
            let token = self.auth.current().await?;
            let attempt = {
                let _permit = self
                    .limit
                    .acquire()
                    .await
                    .map_err(|_| ClientError::Closed)?;
                self.attempt(&url, token.expose()).await
            };
            let (outcome, failure) = match attempt {
                Ok((status, _, body)) if (200..300).contains(&status) => return Ok(body),
                Ok((status @ (401 | 403), _, _)) if !renewed && self.auth.can_renew() => {
                    log::info!(
                        target: "marketcurves.auth",
                        "{endpoint}: token refused (HTTP {status}); fetching a new one"
                    );
                    renewed = true;
                    self.auth.renew(&token).await?;
                    continue;
                }
                Ok((status, retry_after, body)) => {
                    let message = body_message(&body);
                    if let Some(error) = refusal(endpoint, status, &message) {
                        return Err(error);
                    }
                    (
                        Outcome::of_status(status, retry_after),
                        (Some(status), message),
                    )
                }
                Err(message) => (Outcome::Transient, (None, message)),
            };
            match self.policy.wait(retries, outcome, fastrand::f64()) {
                Some(wait) => {
                    log::warn!(
                        target: "marketcurves.http",
                        "{endpoint} {path}: {} ; retry {} of {} in {:.2} s",
                        failure.1,
                        retries + 1,
                        self.policy.max_retries,
                        wait.as_secs_f64()
                    );
                    tokio::time::sleep(wait).await;
                    retries += 1;
                }
                None => {
                    let attempts = retries + 1;
                    let (status, message) = failure;
                    return Err(match outcome {
                        Outcome::RateLimited(_) => ClientError::RateLimited {
                            endpoint: endpoint.to_owned(),
                            attempts,
                        },
                        _ => ClientError::Service {
                            endpoint: endpoint.to_owned(),
                            status,
                            attempts,
                            message: match status {
                                Some(code) => format!("HTTP {code}: {message}"),
                                None => message,
                            },
                        },
                    });
                }
            }
        }
    }

    /// One request: status, Retry-After and body, or what went wrong on the way.
    async fn attempt(
        &self,
        url: &str,
        token: &str,
    ) -> Result<(u16, Option<Duration>, Bytes), String> {
        let response = self
            .client
            .get(url)
            .bearer_auth(token)
            .timeout(self.timeout)
            .send()
            .await
            .map_err(describe)?;
        let status = response.status().as_u16();
        log::debug!(target: "marketcurves.http", "GET {} -> {status}", response.url().path());
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, Utc::now()));
        let body = response.bytes().await.map_err(describe)?;
        Ok((status, retry_after, body))
    }
}

/// The error a refusal (4xx other than 408 and 429) stands for, if it is one.
fn refusal(endpoint: &str, status: u16, message: &str) -> Option<ClientError> {
    let endpoint = endpoint.to_owned();
    let message = message.to_owned();
    Some(match status {
        400 | 422 => ClientError::InvalidRequest(format!(
            "{endpoint}: the service refused the request (HTTP {status}): {message}"
        )),
        401 => ClientError::Auth(format!(
            "{endpoint}: the token was refused (HTTP 401): {message}"
        )),
        403 => ClientError::AccessDenied { endpoint, message },
        404 => ClientError::NotFound { endpoint, message },
        408 | 429 | 500..=599 => return None,
        _ => ClientError::Service {
            endpoint,
            status: Some(status),
            attempts: 1,
            message: format!("HTTP {status}: {message}"),
        },
    })
}

/// A transport error in words, without the URL.
fn describe(error: reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "cannot connect"
    } else if error.is_body() || error.is_decode() {
        "the response broke off"
    } else {
        "request failed"
    };
    let error = error.without_url();
    let mut detail = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        detail = format!("{detail}: {cause}");
        source = cause.source();
    }
    format!("{kind} ({detail})")
}
