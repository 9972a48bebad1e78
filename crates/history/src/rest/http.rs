//! One pooled HTTP client for every REST call: bearer token, bounded
//! concurrency, timeouts, retries, and errors that name the endpoint.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use reqwest::{redirect, Method};
use tokio::sync::Semaphore;

use super::auth::{Authenticator, Credentials};
use super::retry::RetryPolicy;
use super::send::Sender;
use super::service_clock::ServiceClock;
use places::error::{body_message, ClientError};
use places::net::Network;
use places::Closing;
use places::Secret;

#[derive(Clone)]
pub struct HttpConfig {
    /// Ends in the version segment, without a trailing slash.
    pub base_url: String,
    pub credentials: Credentials,
    pub max_concurrency: usize,
    /// For one attempt: connecting, sending and reading the whole body.
    pub timeout: Duration,
    pub max_retries: u32,
    /// Proxies and trusted certificates; [`Network::from_env`] reads the
    /// environment, the default connects directly.
    pub network: Network,
    /// The longest response body taken in, in bytes
    /// ([`DEFAULT_MAX_RESPONSE_BYTES`] by default).
    pub max_response_bytes: u64,
}

/// The longest response body taken in by default: 64 MiB, some hundred
/// times the largest page the service sends (a catalogue page of a few
/// hundred curves), and little enough that a runaway answer is refused
/// within a second or two of reading rather than after gigabytes.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 64 * 1024 * 1024;

pub struct Http {
    sender: Sender,
    auth: Authenticator,
    limit: Arc<Semaphore>,
    base_url: String,
    closing: Closing,
    clock: ServiceClock,
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
        let client = config
            .network
            .http_client_builder()
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .pool_max_idle_per_host(config.max_concurrency)
            .redirect(same_host_redirects())
            .user_agent(concat!("marketcurves/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| {
                ClientError::invalid(
                    places::Argument::Request,
                    places::Rule::Unusable,
                    format!("cannot build the HTTP client: {e}"),
                )
            })?;
        let sender = Sender {
            client,
            policy: RetryPolicy {
                max_retries: config.max_retries,
                ..RetryPolicy::default()
            },
            timeout: config.timeout,
            network: config.network,
            max_body: config.max_response_bytes,
        };
        let auth = Authenticator::new(config.credentials, sender.clone(), &config.base_url);
        Ok(Http {
            sender,
            auth,
            limit: Arc::new(Semaphore::new(config.max_concurrency)),
            base_url: config.base_url,
            closing: Closing::default(),
            clock: ServiceClock::default(),
        })
    }

    /// The client's close signal: [`call`](Self::call) and
    /// [`fresh_token`](Self::fresh_token) race it; work made of more than
    /// requests (polling, downloads) guards itself with it.
    pub fn closing(&self) -> &Closing {
        &self.closing
    }

    /// GETs `path` (relative to the base URL, already percent-encoded) and
    /// returns the body of a 2xx answer. `endpoint` names it in errors.
    pub async fn get(
        &self,
        endpoint: &str,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Bytes, ClientError> {
        self.call(Method::GET, endpoint, path, query, Forbidden::NoLicence)
            .await
    }

    /// Sends `method` to `path` with the bearer token; a refused token is
    /// replaced once by a new one. `forbidden` says what a 403 means there.
    /// Once the client is closed, ends with [`ClientError::ClientClosed`].
    pub async fn call(
        &self,
        method: Method,
        endpoint: &str,
        path: &str,
        query: &[(&str, String)],
        forbidden: Forbidden,
    ) -> Result<Bytes, ClientError> {
        let sending = self.call_open(method, endpoint, path, query, forbidden);
        self.closing.guard(sending).await
    }

    async fn call_open(
        &self,
        method: Method,
        endpoint: &str,
        path: &str,
        query: &[(&str, String)],
        forbidden: Forbidden,
    ) -> Result<Bytes, ClientError> {
        let url = format!("{}{path}{}", self.base_url, query_string(query));
        let mut renewed = false;
        loop {
            let token = self.auth.current().await?;
            let answer = {
                let _permit = self
                    .limit
                    .acquire()
                    .await
                    .map_err(|_| ClientError::ClientClosed)?;
                let request = |client: &reqwest::Client| {
                    client
                        .request(method.clone(), &url)
                        .bearer_auth(token.expose())
                };
                self.sender.send(endpoint, path, request).await?
            };
            if let Some(date) = &answer.date {
                self.clock.observe(date);
            }
            match answer.status {
                200..=299 => return Ok(answer.body),
                status @ (401 | 403) if !renewed && self.auth.can_renew() => {
                    log::info!(
                        target: "marketcurves.auth",
                        "{endpoint}: token refused (HTTP {status}); fetching a new one"
                    );
                    renewed = true;
                    self.auth.renew(&token).await?;
                }
                403 if forbidden == Forbidden::BadToken => {
                    let message = body_message(&answer.body);
                    return Err(ClientError::auth(
                        places::AuthReason::TokenRefused { status: 403 },
                        Some(endpoint.to_owned()),
                        message,
                    ));
                }
                status => return Err(refusal(endpoint, status, &body_message(&answer.body))),
            }
        }
    }

    /// A token fetched from its source now (not the cached one): what the
    /// live feed sends at each authentication.
    pub async fn fresh_token(&self) -> Result<Secret, ClientError> {
        self.closing.guard(self.auth.fresh()).await
    }

    /// The service's clock, as its answers tell it.
    pub fn service_clock(&self) -> &ServiceClock {
        &self.clock
    }

    /// Who this client acts for, as a stable name: what keys the history
    /// cache, so that accounts never share one (see [`Authenticator::account`]).
    pub async fn account(&self) -> Result<String, ClientError> {
        self.closing.guard(self.auth.account()).await
    }

    /// The base URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The route and trust of every connection this client opens.
    pub fn network(&self) -> &Network {
        &self.sender.network
    }

    /// The pooled client and its retry policy, for requests without the token
    /// (pre-signed URLs).
    pub fn sender(&self) -> &Sender {
        &self.sender
    }
}

/// What a 403 means on an endpoint: outside the licence (the design's choice
/// for data), or a bad token (the interface's rule for bulk download).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbidden {
    NoLicence,
    BadToken,
}

/// The error a final refusal stands for.
fn refusal(endpoint: &str, status: u16, message: &str) -> ClientError {
    let endpoint = endpoint.to_owned();
    let message = message.to_owned();
    match status {
        400 | 422 => ClientError::invalid(
            places::Argument::Request,
            places::Rule::Refused,
            format!("{endpoint}: the service refused the request (HTTP {status}): {message}"),
        ),
        401 => ClientError::auth(
            places::AuthReason::TokenRefused { status: 401 },
            Some(endpoint),
            message,
        ),
        403 => ClientError::AccessDenied {
            endpoint,
            message,
            subscription: None,
        },
        404 => ClientError::NotFound { endpoint, message },
        _ => ClientError::Service {
            endpoint,
            status: Some(status),
            attempts: 1,
            message: format!("HTTP {status}: {message}"),
            advice: None,
        },
    }
}
