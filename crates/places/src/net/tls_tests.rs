use std::path::PathBuf;

use super::*;

/// A self-signed CA certificate (EC P-256), made for these tests.
const TEST_CA: &str = "-----BEGIN CERTIFICATE-----
MIIBpTCCAUugAwIBAgIUEtdzSHdSPrUxnAwEYr86gXnHoHkwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUbWFya2V0Y3VydmVzIHRlc3QgQ0EwIBcNMjYxMTIzMTA1MTAw
WhgPMjEyNjEwMzAxMDUxMDBaMB8xHTAbBgNVBAMMFG1hcmtldGN1cnZlcyB0ZXN0
IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEZLTXOIVb9NE6bXd//uhTbZI5
6DU+iuis7iki6hatZs4B9sgMDsMP/UUlZ1E8uImZUeaian2aVQbejPIWjSvlOqNj
MGEwHQYDVR0OBBYEFGt+3BIQl/qG1jMRPsqJ9/aIT1lwMB8GA1UdIwQYMBaAFGt+
3BIQl/qG1jMRPsqJ9/aIT1lwMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQD
AgIEMAoGCCqGSM49BAMCA0gAMEUCIBx7pigbbCJRO8rfAAkdmtICNDkTMLCAMler
9D4Ci4vmAiEAsJD6nO2uxlffUEGkVoG8Dp3skgBQ33GqxMq2pcxsuik=
-----END CERTIFICATE-----
";

/// A file of its own under the temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn with(name: &str, content: &[u8]) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("marketcurves-tls-{}-{name}", std::process::id()));
        std::fs::write(&path, content).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn error_of(name: &str, content: &[u8]) -> String {
    let file = TempFile::with(name, content);
    match read_pem_certificates(&file.0, crate::Argument::CaBundle).unwrap_err() {
        crate::ClientError::InvalidRequest(invalid) => {
            assert_eq!(invalid.argument, crate::Argument::CaBundle);
            assert!(
                invalid.rest().is_some(),
                "the binding names the argument: {invalid}"
            );
            invalid.to_string()
        }
        other => panic!("not an InvalidRequest: {other:?}"),
    }
}

#[test]
fn a_bundle_holds_one_or_more_certificates() {
    let one = TempFile::with("one.pem", TEST_CA.as_bytes());
    assert_eq!(
        read_pem_certificates(&one.0, crate::Argument::CaBundle)
            .unwrap()
            .len(),
        1
    );
    let text = format!("# our CAs\n{TEST_CA}\nsome words between\n{TEST_CA}");
    let two = TempFile::with("two.pem", text.as_bytes());
    assert_eq!(
        read_pem_certificates(&two.0, crate::Argument::CaBundle)
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn a_missing_file_is_named_with_its_option() {
    let path = std::env::temp_dir().join("marketcurves-no-such-bundle.pem");
    let error = read_pem_certificates(&path, crate::Argument::Named("SSL_CERT_FILE".into()))
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("SSL_CERT_FILE ("), "{error}");
    assert!(error.contains("cannot read it"), "{error}");
}

#[test]
fn a_file_without_certificates_is_refused() {
    let error = error_of("empty.pem", b"just some text\n");
    assert!(
        error.contains("CA bundle") && error.contains("no certificate"),
        "{error}"
    );
    let key_only =
        "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n";
    assert!(error_of("key.pem", key_only.as_bytes()).contains("no certificate"));
}

#[test]
fn broken_pem_and_certificates_that_do_not_parse_are_refused() {
    let broken = "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n";
    let error = error_of("broken.pem", broken.as_bytes());
    assert!(error.contains("not a valid PEM file"), "{error}");
    let junk = format!(
        "{TEST_CA}-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n"
    );
    let error = error_of("junk.pem", junk.as_bytes());
    assert!(
        error.contains("certificate 2 of 2 is not a valid CA certificate"),
        "{error}"
    );
}

#[test]
fn configurations_add_the_extra_roots_and_differ_only_in_alpn() {
    let file = TempFile::with("roots.pem", TEST_CA.as_bytes());
    let extra = read_pem_certificates(&file.0, crate::Argument::CaBundle).unwrap();
    let configs = client_configs(extra).unwrap();
    assert_eq!(
        configs.http.alpn_protocols,
        vec![b"h2".to_vec(), b"http/1.1".to_vec()]
    );
    assert!(configs.websocket.alpn_protocols.is_empty());
}
