//! The certificates a server may chain to: the platform's trust store plus
//! the caller's extra CA certificates (`ca_bundle=`, `SSL_CERT_FILE`), in one
//! TLS configuration that REST, bulk downloads and the live feed share.
//!
//! Verification is rustls-platform-verifier's, as reqwest's own: the OS
//! verifier on macOS and Windows; on Linux the system's store, read by
//! rustls-native-certs, which (like OpenSSL) reads `SSL_CERT_FILE` and
//! `SSL_CERT_DIR` *instead of* the system's store when they are set. The
//! platform verifiers of macOS and Windows ignore those variables, so the
//! certificates of `SSL_CERT_FILE` are also added here as extra roots: it
//! then works the same everywhere.

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};

use crate::{Advice, Argument, ClientError, Invalid, Rule};

/// Extra CA certificates read from a PEM file, each checked. `argument`
/// says where the path came from (the client's CA bundle, `SSL_CERT_FILE`)
/// in errors.
pub fn read_pem_certificates(
    path: &Path,
    argument: Argument,
) -> Result<Vec<CertificateDer<'static>>, ClientError> {
    let shown = path.display();
    let invalid = |why: String| {
        ClientError::InvalidRequest(
            Invalid::led(
                argument.clone(),
                Rule::Unusable,
                &format!(" ({shown}): {why}"),
            )
            .value(shown.to_string()),
        )
    };
    let bytes = std::fs::read(path).map_err(|e| invalid(format!("cannot read it: {e}")))?;
    let certificates = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid(format!("not a valid PEM file: {e}")))?;
    if certificates.is_empty() {
        return Err(invalid(
            "no certificate in it (a PEM file of -----BEGIN CERTIFICATE----- blocks is expected)"
                .into(),
        ));
    }
    let mut store = RootCertStore::empty();
    for (index, certificate) in certificates.iter().enumerate() {
        store.add(certificate.clone()).map_err(|e| {
            invalid(format!(
                "certificate {} of {} is not a valid CA certificate: {e}",
                index + 1,
                certificates.len()
            ))
        })?;
    }
    Ok(certificates)
}

/// The TLS configurations built from one verifier: one for HTTP (which
/// offers HTTP/2), one for the WebSocket (HTTP/1.1 only).
#[derive(Debug)]
pub struct TlsConfigs {
    pub http: ClientConfig,
    pub websocket: Arc<ClientConfig>,
}

/// The platform's roots plus `extra`.
pub fn client_configs(extra: Vec<CertificateDer<'static>>) -> Result<TlsConfigs, ClientError> {
    // reqwest's choice of provider, so that both agree.
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
    let verifier =
        rustls_platform_verifier::Verifier::new_with_extra_roots(extra, Arc::clone(&provider))
            .map_err(|e| {
                ClientError::InvalidRequest(
                    Invalid::new(
                        Argument::CaBundle,
                        Rule::Unusable,
                        format!("cannot load the trusted certificates of this system ({e})"),
                    )
                    .advice(Advice::CaBundle),
                )
            })?;
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| {
            ClientError::invalid(
                crate::Argument::CaBundle,
                crate::Rule::Unusable,
                format!("no usable TLS version: {e}"),
            )
        })?
        // Not a weakening: the platform's verifier, as reqwest installs it.
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    let mut http = config.clone();
    http.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(TlsConfigs {
        http,
        websocket: Arc::new(config),
    })
}

#[cfg(test)]
#[path = "tls_tests.rs"]
mod tests;
