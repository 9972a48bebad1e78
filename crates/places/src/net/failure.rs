//! Failures of the network path in words a user can act on: a certificate
//! the client does not trust, a proxy that refuses. Both are permanent:
//! retrying gives the same answer, so they end a call (or the live feed) at
//! once instead of after every retry.

use std::error::Error;
use std::fmt;

use crate::invalid::{advised, Advice};

/// A failure's words, with what to do about it as data (a binding words
/// the advice in its own terms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub words: String,
    pub advice: Option<Advice>,
}

impl From<String> for Said {
    fn from(words: String) -> Said {
        Said {
            words,
            advice: None,
        }
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&advised(&self.words, self.advice, &Advice::joined))
    }
}

/// The certificate problem somewhere in `error`'s chain, in rustls's words
/// (`invalid peer certificate: UnknownIssuer`), if there is one.
pub fn certificate_problem(error: &(dyn Error + 'static)) -> Option<String> {
    let mut current = Some(error);
    while let Some(error) = current {
        if let Some(tls) = error.downcast_ref::<rustls::Error>() {
            if matches!(
                tls,
                rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented
            ) {
                return Some(tls.to_string());
            }
        }
        // An I/O error's `source` skips the error it wraps: look inside.
        if let Some(inner) = error
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            if let Some(found) = certificate_problem(inner) {
                return Some(found);
            }
        }
        current = error.source();
    }
    None
}

/// The message for a certificate problem with `server` (`host:port`),
/// advising to trust the CA of a network that inspects TLS.
pub fn certificate_message(server: &str, problem: &str) -> Said {
    Said {
        words: format!(
            "TLS certificate problem: the certificate of {server} is not trusted ({problem})"
        ),
        advice: Some(Advice::InspectedTls),
    }
}

/// The whole chain of `error` in one line.
pub fn chain(error: &(dyn Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.ends_with(&cause_text) {
            text = format!("{text}: {cause_text}");
        }
        source = cause.source();
    }
    text
}

/// Whether a reqwest error is a proxy that refused a `CONNECT` for want of
/// credentials. hyper-util keeps its tunnel error type private, so its
/// words are all there is; were they to change, the failure is retried
/// like any other connection error and still reported.
pub fn proxy_wants_credentials(error: &(dyn Error + 'static)) -> bool {
    chain(error).contains("proxy authorization required")
}

/// Whether a reqwest error is a proxy's refusal of a `CONNECT` (its words,
/// as for [`proxy_wants_credentials`]).
pub fn proxy_refused_tunnel(error: &(dyn Error + 'static)) -> bool {
    chain(error).contains("tunnel error: unsuccessful")
}

#[cfg(test)]
#[path = "failure_tests.rs"]
mod tests;
