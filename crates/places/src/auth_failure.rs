//! A failed authentication as data: why it failed, where (the endpoint or
//! the store that refused), and the service's or the store's own words.
//! The words name two of the caller's arguments (the token provider, the
//! base address): a binding words them as its parameters, from the same
//! fields. Never a token or a password in a field.

use std::fmt;

use crate::invalid::Argument;

/// Why authentication failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthReason {
    /// The caller's token provider failed without raising (its task ended
    /// abnormally, or it returned what is no text): `detail` says how. What
    /// it raised is a `ClientError::TokenProvider`.
    ProviderFailed,
    /// The token provider returned an empty token.
    ProviderEmpty,
    /// The token provider returned a token with control characters, which
    /// no header can carry.
    ProviderControlCharacters,
    /// No login endpoint at the address (HTTP 404): the client's base
    /// address is likely not the service's. `detail` is the URL, redacted.
    NoLoginEndpoint,
    /// The service refused the login (`status`); `detail` is its answer.
    LoginRefused { status: u16 },
    /// The login's answer carried no token.
    NoToken,
    /// The service refused the token (HTTP 401, or a 403 that names the
    /// token); `detail` is its answer.
    TokenRefused { status: u16 },
    /// The live feed refused the token twice, even a freshly fetched one.
    FeedRefusedTwice,
    /// An object store refused the credentials; `detail` is its answer.
    StoreRefused,
    /// The failure that ended a live feed, told again to a later caller:
    /// `detail` is its message.
    FeedEnded,
}

/// An authentication failure: `reason`, at `host` (an endpoint such as
/// `POST /authenticate`, or the store shown), with `detail` in the words
/// of whoever refused. `context` says what needed the token, outermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthFailure {
    pub reason: AuthReason,
    pub host: Option<String>,
    pub detail: String,
    pub context: Vec<String>,
}

impl AuthFailure {
    pub fn new(reason: AuthReason, host: Option<String>, detail: impl Into<String>) -> AuthFailure {
        AuthFailure {
            reason,
            host,
            detail: detail.into(),
            context: Vec::new(),
        }
    }

    /// With `context` before the rest ("no token for the live feed").
    #[must_use]
    pub fn in_context(mut self, context: &str) -> AuthFailure {
        self.context.insert(0, context.to_owned());
        self
    }

    /// The message, naming the caller's arguments as `name` words them (a
    /// binding passes its parameters' names; [`Display`](fmt::Display) the
    /// Rust API's words).
    pub fn words(&self, name: impl Fn(&Argument) -> &str) -> String {
        let host = self.host.as_deref().unwrap_or("authentication");
        let detail = &self.detail;
        let said = match self.reason {
            AuthReason::ProviderFailed => {
                format!("{} failed: {detail}", name(&Argument::TokenProvider))
            }
            AuthReason::ProviderEmpty => {
                format!("{} returned an empty token", name(&Argument::TokenProvider))
            }
            AuthReason::ProviderControlCharacters => format!(
                "{} returned a token with control characters",
                name(&Argument::TokenProvider)
            ),
            AuthReason::NoLoginEndpoint => format!(
                "{host}: {detail} does not exist (HTTP 404): is {} the service's REST \
                 base address, ending in its version segment such as /v2?",
                name(&Argument::BaseUrl)
            ),
            AuthReason::LoginRefused { status } => {
                format!("{host}: login refused (HTTP {status}): {detail}")
            }
            AuthReason::NoToken => format!("{host}: the answer has no \"token\""),
            AuthReason::TokenRefused { status } => {
                format!("{host}: the token was refused (HTTP {status}): {detail}")
            }
            AuthReason::FeedRefusedTwice => "the live feed refused the token twice \
                (auth-failed), even a freshly fetched one"
                .to_owned(),
            AuthReason::StoreRefused => {
                format!("{host}: the store refused the credentials ({detail})")
            }
            AuthReason::FeedEnded => detail.clone(),
        };
        let mut words = String::new();
        for context in &self.context {
            words.push_str(context);
            words.push_str(": ");
        }
        words.push_str(&said);
        words
    }
}

impl fmt::Display for AuthFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Argument::words))
    }
}

#[cfg(test)]
#[path = "auth_failure_tests.rs"]
mod tests;
