//! The way to the service: which proxy each destination goes through and
//! which certificates are trusted, decided once per client and used alike
//! by REST calls, bulk downloads and the live feed.

pub mod connect;
pub mod failure;
pub mod no_proxy;
pub mod proxy;
pub mod tls;
pub mod tunnel;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use reqwest::Url;

use crate::ClientError;
pub use proxy::{ProxyRules, ProxyServer};
use tls::TlsConfigs;

/// Proxies and trust, shared (cheaply cloned) by everything a client opens.
#[derive(Clone, Default)]
pub struct Network {
    pub proxies: ProxyRules,
    /// None: each library's own default trust (reqwest's platform verifier,
    /// tokio-tungstenite's native roots), as a plain `Default` gives.
    tls: Option<Arc<TlsConfigs>>,
}

impl Network {
    /// What a user's client uses: the proxies of the environment, and the
    /// platform's trusted certificates plus those of `ca_bundle` and of
    /// `SSL_CERT_FILE`.
    pub fn from_env(ca_bundle: Option<&Path>) -> Result<Network, ClientError> {
        let mut extra = Vec::new();
        if let Some(path) = ca_bundle {
            extra.extend(tls::read_pem_certificates(path, crate::Argument::CaBundle)?);
        }
        if let Some(path) = std::env::var_os("SSL_CERT_FILE").filter(|p| !p.is_empty()) {
            extra.extend(tls::read_pem_certificates(
                Path::new(&path),
                crate::Argument::Named("SSL_CERT_FILE".into()),
            )?);
        }
        Ok(Network {
            proxies: ProxyRules::from_env()?,
            tls: Some(Arc::new(tls::client_configs(extra)?)),
        })
    }

    /// The proxy for `url`, or None to connect directly.
    pub fn proxy_for(&self, url: &Url) -> Option<&ProxyServer> {
        self.proxies.proxy_for(url)
    }

    /// A reqwest client builder that takes the same route and trust.
    pub fn http_client_builder(&self) -> reqwest::ClientBuilder {
        let mut builder = reqwest::Client::builder();
        builder = if self.proxies.is_direct() {
            // Without this reqwest would read the environment on its own.
            builder.no_proxy()
        } else {
            let rules = self.proxies.clone();
            builder.proxy(reqwest::Proxy::custom(move |url| {
                rules.proxy_for(url).map(ProxyServer::url_with_credentials)
            }))
        };
        if let Some(tls) = &self.tls {
            builder = builder.tls_backend_preconfigured(tls.http.clone());
        }
        builder
    }

    /// The TLS connector of the live feed, None for tokio-tungstenite's own.
    pub fn websocket_connector(&self) -> Option<tokio_tungstenite::Connector> {
        self.tls
            .as_ref()
            .map(|tls| tokio_tungstenite::Connector::Rustls(Arc::clone(&tls.websocket)))
    }

    /// `" through the proxy http://host:port"` when `url` goes through one.
    pub fn route_note(&self, url: &str) -> String {
        Url::parse(url)
            .ok()
            .and_then(|url| self.proxy_for(&url).map(ProxyServer::address))
            .map(|proxy| format!(" through the proxy {proxy}"))
            .unwrap_or_default()
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("proxies", &self.proxies)
            .field("own_tls", &self.tls.is_some())
            .finish()
    }
}
