//! One request with its retries: connection errors, timeouts, 429 and 5xx
//! are tried again as the retry policy says; any other answer is returned
//! for the caller to read.

use std::time::Duration;

use bytes::Bytes;
use chrono::Utc;
use reqwest::header::RETRY_AFTER;
use reqwest::RequestBuilder;

use super::error::{body_message, ClientError};
use super::retry::{parse_retry_after, Outcome, RetryPolicy};

/// A final answer: success, or a refusal retrying would not change.
pub struct Answer {
    pub status: u16,
    pub body: Bytes,
}

#[derive(Clone)]
pub struct Sender {
    pub client: reqwest::Client,
    pub policy: RetryPolicy,
    /// For one attempt: connecting, sending and reading the whole body.
    pub timeout: Duration,
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
            let (outcome, status, message) = match self.attempt(&build).await {
                Ok((status, retry_after, body)) => match Outcome::of_status(status, retry_after) {
                    Outcome::Success | Outcome::Fatal => return Ok(Answer { status, body }),
                    outcome => (outcome, Some(status), body_message(&body)),
                },
                Err(message) => (Outcome::Transient, None, message),
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
    ) -> Result<(u16, Option<Duration>, Bytes), String> {
        let response = build(&self.client)
            .timeout(self.timeout)
            .send()
            .await
            .map_err(describe)?;
        let status = response.status().as_u16();
        log::debug!(target: "marketcurves.http", "{} -> {status}", response.url().path());
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, Utc::now()));
        let body = response.bytes().await.map_err(describe)?;
        Ok((status, retry_after, body))
    }
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
