//! One request with its retries: connection errors, timeouts, 429 and 5xx
//! are tried again as the retry policy says; any other answer is returned
//! for the caller to read.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use chrono::Utc;
use reqwest::header::{DATE, RETRY_AFTER};
use reqwest::RequestBuilder;

use super::retry::{parse_retry_after, Outcome, RetryPolicy};
use places::error::{body_message, ClientError};
use places::net::failure::Said;
use places::net::{failure, tunnel, Network};

/// A final answer: success, or a refusal retrying would not change.
pub struct Answer {
    pub status: u16,
    pub body: Bytes,
    /// The `Date` header: the service's clock when it answered.
    pub date: Option<String>,
}

#[derive(Clone)]
pub struct Sender {
    pub client: reqwest::Client,
    pub policy: RetryPolicy,
    /// For one attempt: connecting, sending and reading the whole body.
    pub timeout: Duration,
    /// The route the client takes, to explain failures on the way.
    pub network: Network,
    /// The longest body taken in, in bytes (`max_response_bytes`).
    pub max_body: u64,
}

impl Sender {
    /// Sends the request `build` makes, again as long as the policy allows.
    /// `endpoint` and `path` name it in logs and errors.
    pub async fn send(
        &self,
        endpoint: &str,
        path: &str,
        build: impl Fn(&reqwest::Client) -> RequestBuilder,
    ) -> Result<Answer, ClientError> {
        let mut retries = 0;
        loop {
            let failed = |said: Said| ClientError::Service {
                endpoint: endpoint.to_owned(),
                status: None,
                attempts: retries + 1,
                message: said.words,
                advice: said.advice,
            };
            let (outcome, status, message) = match self.attempt(&build).await {
                Ok((status, retry_after, body, date)) => {
                    match Outcome::of_status(status, retry_after) {
                        Outcome::Success | Outcome::Fatal => {
                            return Ok(Answer { status, body, date })
                        }
                        outcome => (outcome, Some(status), body_message(&body)),
                    }
                }
                Err(Failure::Permanent(message)) => return Err(failed(message)),
                Err(Failure::Passing(message)) => (Outcome::Transient, None, message),
            };
            let shown = match status {
                Some(code) => format!("HTTP {code}: {message}"),
                None => message,
            };
            let Some(wait) = self.policy.wait(retries, outcome, fastrand::f64()) else {
                let attempts = retries + 1;
                return Err(match outcome {
                    Outcome::RateLimited(_) => ClientError::RateLimited {
                        endpoint: endpoint.to_owned(),
                        attempts,
                    },
                    _ => ClientError::Service {
                        endpoint: endpoint.to_owned(),
                        status,
                        attempts,
                        message: shown,
                        advice: None,
                    },
                });
            };
            log::warn!(
                target: "marketcurves.http",
                "{endpoint} {path}: {shown}; retry {} of {} in {:.2} s",
                retries + 1,
                self.policy.max_retries,
                wait.as_secs_f64()
            );
            tokio::time::sleep(wait).await;
            retries += 1;
        }
    }

    /// One attempt: status, Retry-After and body, or what went wrong on the way.
    async fn attempt(
        &self,
        build: &impl Fn(&reqwest::Client) -> RequestBuilder,
    ) -> Result<(u16, Option<Duration>, Bytes, Option<String>), Failure> {
        let response = build(&self.client)
            .timeout(self.timeout)
            .send()
            .await
            .map_err(|e| self.explain(e))?;
        let status = response.status().as_u16();
        if status == 407 {
            // Only a proxy answers 407: the request went through one (a
            // plain http:// destination) that wants other credentials.
            return Err(Failure::Permanent(Said::from(proxy_refusal(
                &self.network,
                response.url(),
                "Proxy Authentication Required",
            ))));
        }
        log::debug!(target: "marketcurves.http", "{} -> {status}", response.url().path());
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, Utc::now()));
        let date = response
            .headers()
            .get(DATE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = self.bounded_body(response).await?;
        Ok((status, retry_after, body, date))
    }

    /// The body, read chunk by chunk, refused as soon as it is known to be
    /// longer than `max_body`: from its `Content-Length`, or while it
    /// streams. Within the attempt's timeout, as the whole attempt is.
    async fn bounded_body(&self, mut response: reqwest::Response) -> Result<Bytes, Failure> {
        let too_long = |length: String| {
            Failure::Permanent(Said {
                words: format!(
                    "the response is longer than the {} MiB allowed ({length})",
                    self.max_body / (1024 * 1024)
                ),
                advice: Some(places::Advice::ResponseLimit),
            })
        };
        let declared = response.content_length();
        if let Some(length) = declared.filter(|&n| n > self.max_body) {
            return Err(too_long(format!("{length} bytes declared")));
        }
        let mut body = BytesMut::with_capacity(declared.unwrap_or(0) as usize);
        while let Some(chunk) = response.chunk().await.map_err(|e| self.explain(e))? {
            if (body.len() + chunk.len()) as u64 > self.max_body {
                return Err(too_long(format!("over {} bytes read", body.len())));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body.freeze())
    }

    /// A transport error in words, naming the proxy it went through and
    /// whether retrying could help.
    pub fn explain(&self, error: reqwest::Error) -> Failure {
        let url = error.url().cloned();
        let server = url.as_ref().and_then(places::net::connect::authority);
        let proxy = url.as_ref().and_then(|url| self.network.proxy_for(url));
        if let Some(problem) = failure::certificate_problem(&error) {
            let server = server.unwrap_or_else(|| "the server".into());
            return Failure::Permanent(failure::certificate_message(&server, &problem));
        }
        if let (Some(url), true) = (&url, failure::proxy_wants_credentials(&error)) {
            return Failure::Permanent(Said::from(proxy_refusal(
                &self.network,
                url,
                "Proxy Authentication Required",
            )));
        }
        let refused = failure::proxy_refused_tunnel(&error);
        let detail = describe(error, server.as_deref());
        match proxy {
            // hyper-util does not keep the status of a refusal other than
            // 407; a gateway error may pass, so it is retried.
            Some(proxy) if refused => Failure::Passing(format!(
                "the proxy {} (from {}) refused the connection to {}",
                proxy.address(),
                proxy.variable,
                server.unwrap_or_default()
            )),
            Some(proxy) if detail.starts_with("cannot connect") => Failure::Passing(format!(
                "{detail} through the proxy {} (from {})",
                proxy.address(),
                proxy.variable
            )),
            _ => Failure::Passing(detail),
        }
    }
}

/// Why an attempt failed: worth another one, or not.
pub enum Failure {
    Passing(String),
    /// Retrying gives the same answer (a certificate, a proxy's refusal).
    Permanent(Said),
}

/// A proxy's 407, with what to do about it.
fn proxy_refusal(network: &Network, url: &reqwest::Url, reason: &str) -> String {
    let server = places::net::connect::authority(url).unwrap_or_default();
    match network.proxy_for(url) {
        Some(proxy) => tunnel::refusal(proxy, &server, 407, reason, &[]).message,
        None => format!("a proxy on the way to {server} refused the request: HTTP 407 {reason}"),
    }
}

/// A transport error in words, without the URL's path or query but naming
/// the server (`host:port`) a connection to was refused or never made.
fn describe(error: reqwest::Error, server: Option<&str>) -> String {
    let kind = if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        match server {
            Some(server) => format!("cannot connect to {server}"),
            None => "cannot connect".to_owned(),
        }
    } else if error.is_body() || error.is_decode() {
        "the response broke off".to_owned()
    } else {
        "request failed".to_owned()
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
