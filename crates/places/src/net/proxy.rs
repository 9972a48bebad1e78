//! Which proxy, if any, a destination goes through: the one decision REST
//! calls, bulk downloads and the live feed all take here.
//!
//! From the environment, as curl and reqwest read it: `HTTPS_PROXY` for
//! `https://` and `wss://` destinations, `HTTP_PROXY` for `http://` and
//! `ws://`, `ALL_PROXY` for either when its own is not set (each also in
//! lowercase; the uppercase form wins, an empty value counts as unset), and
//! `NO_PROXY` for the exceptions. Only plain `http://` proxies are
//! supported: the request (or, for a tunnel, `CONNECT`) goes to the proxy in
//! clear, and the user and password of the proxy's URL are sent as
//! `Proxy-Authorization: Basic`.

use std::fmt;

use base64::Engine as _;
use percent_encoding::percent_decode_str;
use reqwest::Url;

use super::no_proxy::{Host, NoProxy};
use crate::{ClientError, Secret};
use domain::redact::redact_url;

/// One proxy, as a variable of the environment names it.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyServer {
    /// The variable it came from (`HTTPS_PROXY`), for messages.
    pub variable: &'static str,
    pub host: String,
    pub port: u16,
    user: Option<String>,
    password: Option<Secret>,
}

impl ProxyServer {
    /// Reads a proxy URL; a bare `host:port` means `http://host:port`.
    pub fn parse(variable: &'static str, value: &str) -> Result<ProxyServer, ClientError> {
        let value = value.trim();
        let with_scheme = if value.contains("://") {
            value.to_owned()
        } else {
            format!("http://{value}")
        };
        let invalid = |why: &str| {
            ClientError::invalid(
                crate::Argument::Proxy,
                crate::Rule::Form,
                format!(
                    "{variable} must be a proxy URL such as http://proxy.example.com:3128, \
                 not {:?}: {why}",
                    redact_url(&with_scheme)
                ),
            )
        };
        let url = Url::parse(&with_scheme).map_err(|e| invalid(&e.to_string()))?;
        match url.scheme() {
            "http" => {}
            "https" => {
                return Err(invalid(
                    "a proxy reached over TLS is not supported; most proxies take http:// \
                     even for https:// destinations",
                ))
            }
            other => return Err(invalid(&format!("{other}:// proxies are not supported"))),
        }
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| invalid("no host"))?;
        let decode = |text: &str| percent_decode_str(text).decode_utf8_lossy().into_owned();
        Ok(ProxyServer {
            variable,
            host: host.to_owned(),
            port: url.port_or_known_default().unwrap_or(80),
            user: (!url.username().is_empty()).then(|| decode(url.username())),
            password: url.password().map(|p| Secret::new(decode(p))),
        })
    }

    /// `http://host:port`, without the credentials: for messages and logs.
    pub fn address(&self) -> String {
        format!("http://{}:{}", self.host, self.port)
    }

    pub fn has_credentials(&self) -> bool {
        self.user.is_some() || self.password.is_some()
    }

    /// The `Proxy-Authorization` value, when the URL carries a user.
    pub fn basic_authorization(&self) -> Option<Secret> {
        if !self.has_credentials() {
            return None;
        }
        let user = self.user.as_deref().unwrap_or_default();
        let password = self.password.as_ref().map_or("", Secret::expose);
        let encoded =
            base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        Some(Secret::new(format!("Basic {encoded}")))
    }

    /// The URL with its credentials, for reqwest only (which sends them as
    /// the same `Proxy-Authorization` and never shows them).
    pub(crate) fn url_with_credentials(&self) -> Url {
        let mut url = Url::parse(&self.address()).expect("a host and port make a URL");
        if let Some(user) = &self.user {
            let _ = url.set_username(user);
        }
        if let Some(password) = &self.password {
            let _ = url.set_password(Some(password.expose()));
        }
        url
    }
}

impl fmt::Debug for ProxyServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProxyServer")
            .field("variable", &self.variable)
            .field("address", &self.address())
            .field("credentials", &self.has_credentials())
            .finish()
    }
}

/// The proxies of the environment and their exceptions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProxyRules {
    http: Option<ProxyServer>,
    https: Option<ProxyServer>,
    no_proxy: NoProxy,
}

/// The first variable of `names` that is set and not empty.
fn first_set(
    lookup: &impl Fn(&str) -> Option<String>,
    names: &[&'static str],
) -> Option<(&'static str, String)> {
    names.iter().find_map(|&name| {
        lookup(name)
            .filter(|v| !v.trim().is_empty())
            .map(|v| (name, v))
    })
}

impl ProxyRules {
    /// No proxy at all.
    pub fn direct() -> ProxyRules {
        ProxyRules::default()
    }

    /// From the process environment.
    pub fn from_env() -> Result<ProxyRules, ClientError> {
        ProxyRules::from_lookup(|name| std::env::var(name).ok())
    }

    /// From any source of variables (the environment, or a test's map).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<ProxyRules, ClientError> {
        // Under CGI, `HTTP_PROXY` may come from a request's `Proxy:` header
        // (httpoxy): a web server's script must not trust it.
        let cgi = lookup("REQUEST_METHOD").is_some();
        let http_names: &[&'static str] = if cgi {
            &["http_proxy"]
        } else {
            &["HTTP_PROXY", "http_proxy"]
        };
        let all = first_set(&lookup, &["ALL_PROXY", "all_proxy"]);
        let read = |names: &[&'static str]| {
            first_set(&lookup, names)
                .or_else(|| all.clone())
                .map(|(name, value)| ProxyServer::parse(name, &value))
                .transpose()
        };
        let no_proxy = first_set(&lookup, &["NO_PROXY", "no_proxy"])
            .map(|(_, list)| NoProxy::parse(&list))
            .unwrap_or_default();
        Ok(ProxyRules {
            http: read(http_names)?,
            https: read(&["HTTPS_PROXY", "https_proxy"])?,
            no_proxy,
        })
    }

    pub fn is_direct(&self) -> bool {
        self.http.is_none() && self.https.is_none()
    }

    /// The proxy for `url`, or None to connect directly.
    pub fn proxy_for(&self, url: &Url) -> Option<&ProxyServer> {
        let proxy = match url.scheme() {
            "http" | "ws" => self.http.as_ref(),
            "https" | "wss" => self.https.as_ref(),
            _ => None,
        }?;
        let port = url.port_or_known_default()?;
        let host = url.host_str()?;
        let unbracketed = host.trim_start_matches('[').trim_end_matches(']');
        let host = match unbracketed.parse() {
            Ok(ip) => Host::Address(ip),
            Err(_) => Host::Name(host),
        };
        (!self.no_proxy.bypasses(host, port)).then_some(proxy)
    }
}

#[cfg(test)]
#[path = "proxy_tests.rs"]
mod tests;
