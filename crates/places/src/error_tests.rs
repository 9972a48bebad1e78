use super::*;
use crate::net::failure::certificate_message;

fn download_failed() -> ClientError {
    let said = certificate_message("127.0.0.1:8443", "invalid peer certificate: UnknownIssuer");
    ClientError::BulkJobFailed {
        job_id: None,
        reason: format!("download failed: /data/a.parquet: {}", said.words),
        advice: said.advice,
        url: Some("https://127.0.0.1:8443/files/a.parquet".into()),
    }
}

#[test]
fn a_bulk_download_keeps_its_advice_as_data_before_the_address() {
    let error = download_failed();
    assert!(matches!(
        &error,
        ClientError::BulkJobFailed {
            advice: Some(Advice::InspectedTls),
            ..
        }
    ));
    let message = error.to_string();
    assert!(
        message.starts_with("download failed: /data/a.parquet: TLS certificate problem")
            && message.contains("; if a proxy or firewall of your network inspects TLS, give")
            && message.ends_with("(or set SSL_CERT_FILE) (https://127.0.0.1:8443/files/a.parquet)"),
        "{message}"
    );
}

#[test]
fn a_binding_words_a_bulk_download_s_advice() {
    let message = download_failed().advised_message(&|_| "; <advice>".into());
    assert!(
        message.ends_with("UnknownIssuer); <advice> (https://127.0.0.1:8443/files/a.parquet)"),
        "{message}"
    );
    let plain = ClientError::bulk_failed("the download URLs expired");
    assert_eq!(
        plain.advised_message(&|_| unreachable!()),
        "the download URLs expired"
    );
}
