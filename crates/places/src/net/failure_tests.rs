use super::*;

#[test]
fn a_certificate_error_is_found_inside_io_errors() {
    let tls = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
    let io = std::io::Error::new(std::io::ErrorKind::InvalidData, tls);
    #[derive(Debug)]
    struct Outer(std::io::Error);
    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("client error (Connect)")
        }
    }
    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }
    let found = certificate_problem(&Outer(io)).unwrap();
    assert!(found.contains("UnknownIssuer"), "{found}");
    let other = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
    assert_eq!(certificate_problem(&other), None);
    let message = certificate_message("127.0.0.1:8443", &found);
    assert!(message.words.contains("certificate"), "{message}");
    // What to do is data, that a binding words (Python's `ca_bundle=`).
    assert_eq!(message.advice, Some(crate::Advice::InspectedTls));
    assert!(!message.to_string().contains('='), "{message}");
}
