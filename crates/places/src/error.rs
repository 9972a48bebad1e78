//! The errors of the REST client, one variant per exception of the design.
//! Messages name the endpoint, the status and the attempts; never a token.

use std::sync::Arc;

use domain::decode::DecodeError;
use domain::live::Subscription;

use crate::auth_failure::AuthFailure;
use crate::invalid::{advised, Advice, Invalid};
use crate::place_error::PlaceError;

/// What a caller's token provider raised, kept whole so that a binding can
/// chain it to the error it becomes (`__cause__` in Python); messages carry
/// only its redacted text.
pub type ProviderCause = Arc<dyn std::error::Error + Send + Sync>;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Bad input, found before anything was sent (or refused by the service
    /// with 400): the argument, the rule it broke, the value and any advice.
    #[error("{0}")]
    InvalidRequest(Invalid),
    /// Authentication failed: why, where, in whose words (never a secret).
    #[error("{0}")]
    Auth(AuthFailure),
    /// The caller's token provider raised: an authentication failure that
    /// keeps what was raised.
    #[error("{message}")]
    TokenProvider {
        message: String,
        cause: ProviderCause,
    },
    /// Outside the licence: HTTP 403 on data, `NO_ACCESS` on the live feed
    /// (then `subscription` names what was refused).
    #[error("{endpoint}: access denied: {message}")]
    AccessDenied {
        endpoint: String,
        message: String,
        subscription: Option<Subscription>,
    },
    #[error("{endpoint}: not found: {message}")]
    NotFound { endpoint: String, message: String },
    #[error("{endpoint}: still rate limited (HTTP 429) after {attempts} attempts")]
    RateLimited { endpoint: String, attempts: u32 },
    /// The service failed, or the way to it: `advice` says what the caller
    /// can do (trust a network's CA certificates), as data a binding words.
    #[error("{}", service_message(endpoint, message, *advice, *attempts, &Advice::joined))]
    Service {
        endpoint: String,
        status: Option<u16>,
        attempts: u32,
        message: String,
        advice: Option<Advice>,
    },
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A bulk job that did not give its files: `job_id` when one job is at
    /// fault, `reason` in the service's or the client's words, `advice` as
    /// data a binding words (trust a network's CA certificates), and `url`,
    /// redacted, when one file's download is at fault.
    #[error("{}", bulk_message(job_id.as_deref(), reason, *advice, url.as_deref(), &Advice::joined))]
    BulkJobFailed {
        job_id: Option<String>,
        reason: String,
        advice: Option<Advice>,
        url: Option<String>,
    },
    /// A live feed failure that reconnecting cannot mend: the service refused
    /// a subscription (`ERROR_PARSING`, `UNEXPECTED_ERROR` after retries) or
    /// the feed cannot go on. `code` is the feed's error code, empty for a
    /// failure of the connection itself (a certificate, a proxy).
    #[error("{}", live_message(code, &advised(message, *advice, &Advice::joined), subscription.as_ref()))]
    Live {
        code: String,
        message: String,
        subscription: Option<Subscription>,
        advice: Option<Advice>,
    },
    /// Offline, and the cache lacks what was asked for: `missing` names,
    /// for each tenor of `curve_id`, the runs of days it lacks (empty when
    /// what is missing is the catalogue); `advice`, what to do about it.
    #[error("{}", advised(message, *advice, &Advice::joined))]
    CacheMiss {
        message: String,
        curve_id: Option<String>,
        missing: Vec<(String, Vec<(chrono::NaiveDate, chrono::NaiveDate)>)>,
        advice: Option<Advice>,
    },
    /// A destination refused an operation (a full disk, a read-only folder,
    /// a store's refusal, another writer's lock): the place, the operation
    /// and the cause, as data.
    #[error("{0}")]
    Destination(PlaceError),
    /// The client was closed: the call was cut short, or came after.
    #[error("the client was closed; it sends no more requests (make a new one)")]
    ClientClosed,
    /// A failure inside the client (a table that cannot be built, a task
    /// that ended abnormally): neither the caller's input nor the
    /// service's answer. A defect to report.
    #[error("internal error: {what}: {cause}")]
    Internal { what: String, cause: String },
}

impl ClientError {
    /// A failure inside the client: `what` failed (in words, "reading the
    /// cache"), because of `cause`.
    pub fn internal(what: impl Into<String>, cause: impl std::fmt::Display) -> ClientError {
        ClientError::Internal {
            what: what.into(),
            cause: cause.to_string(),
        }
    }

    /// Bad input: `argument` broke `rule`, as `words` say.
    pub fn invalid(
        argument: crate::invalid::Argument,
        rule: crate::invalid::Rule,
        words: impl Into<String>,
    ) -> ClientError {
        ClientError::InvalidRequest(Invalid::new(argument, rule, words))
    }

    /// An authentication failure: `reason` at `host`, in `detail`'s words.
    pub fn auth(
        reason: crate::auth_failure::AuthReason,
        host: Option<String>,
        detail: impl Into<String>,
    ) -> ClientError {
        ClientError::Auth(AuthFailure::new(reason, host, detail))
    }

    /// A bulk download that failed for `reason`, no one job at fault.
    pub fn bulk_failed(reason: impl Into<String>) -> ClientError {
        ClientError::BulkJobFailed {
            job_id: None,
            reason: reason.into(),
            advice: None,
            url: None,
        }
    }

    /// The message, with the advice (of a `Service`, `Live`, `CacheMiss` or
    /// `BulkJobFailed` error) worded by `advise` with what joins it: a binding's terms.
    pub fn advised_message(&self, advise: &dyn Fn(Advice) -> String) -> String {
        match self {
            ClientError::Service {
                endpoint,
                message,
                advice,
                attempts,
                ..
            } => service_message(endpoint, message, *advice, *attempts, advise),
            ClientError::Live {
                code,
                message,
                subscription,
                advice,
            } => live_message(
                code,
                &advised(message, *advice, advise),
                subscription.as_ref(),
            ),
            ClientError::CacheMiss {
                message, advice, ..
            } => advised(message, *advice, advise),
            ClientError::BulkJobFailed {
                job_id,
                reason,
                advice,
                url,
            } => bulk_message(job_id.as_deref(), reason, *advice, url.as_deref(), advise),
            other => other.to_string(),
        }
    }

    /// An authentication failure (`Auth`, `TokenProvider`) with `context`
    /// before its message, keeping the provider's cause; None for any other error.
    pub fn auth_in_context(&self, context: &str) -> Option<ClientError> {
        match self {
            ClientError::Auth(failure) => {
                Some(ClientError::Auth(failure.clone().in_context(context)))
            }
            ClientError::TokenProvider { message, cause } => Some(ClientError::TokenProvider {
                message: format!("{context}: {message}"),
                cause: Arc::clone(cause),
            }),
            _ => None,
        }
    }

    /// The live subscription an error concerns (`AccessDenied`, `Live`), so
    /// that the binding can name its curve and tenor.
    pub fn subscription(&self) -> Option<&Subscription> {
        match self {
            ClientError::AccessDenied { subscription, .. }
            | ClientError::Live { subscription, .. } => subscription.as_ref(),
            _ => None,
        }
    }
}

fn service_message(
    endpoint: &str,
    message: &str,
    advice: Option<Advice>,
    attempts: u32,
    advise: &dyn Fn(Advice) -> String,
) -> String {
    let message = advised(message, advice, advise);
    format!("{endpoint}: {message} after {attempts} attempts")
}

fn bulk_message(
    job_id: Option<&str>,
    reason: &str,
    advice: Option<Advice>,
    url: Option<&str>,
    advise: &dyn Fn(Advice) -> String,
) -> String {
    let reason = advised(reason, advice, advise);
    let said = match job_id {
        Some(id) => format!("bulk job {id} {reason}"),
        None => reason,
    };
    match url {
        Some(url) => format!("{said} ({url})"),
        None => said,
    }
}

fn live_message(code: &str, message: &str, subscription: Option<&Subscription>) -> String {
    let what = match subscription {
        Some(s) => format!(
            "live feed: subscription to curve {} tenor {:?}",
            s.curve_id, s.tenor
        ),
        None => "live feed".to_owned(),
    };
    if message.is_empty() {
        format!("{what}: {code}")
    } else if code.is_empty() {
        format!("{what}: {message}")
    } else {
        format!("{what}: {code}: {message}")
    }
}

/// The first words of an error body, enough to explain a refusal.
pub fn body_message(body: &[u8]) -> String {
    let text = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
        .unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
#[path = "error_tests.rs"]
mod tests;
