use super::*;

#[test]
fn free_text_loses_what_looks_like_a_secret() {
    for (text, redacted) in [
        ("vault password is hunter2", "vault password is ***"),
        ("the vault is closed", "the vault is closed"),
        ("bad token=abc.def", "bad token=***"),
        ("api-key: s3cr3t for vault", "api-key: *** for vault"),
        ("Authorization: Bearer abc", "Authorization: Bearer ***"),
        (
            "got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlMTIz back",
            "got *** back",
        ),
        (
            "GET https://u:pw@vault.corp/v1?sig=1 failed",
            "GET https://vault.corp/v1?… failed",
        ),
        ("503 Service Unavailable", "503 Service Unavailable"),
    ] {
        assert_eq!(redact_text(text), redacted, "{text}");
    }
}

#[test]
fn drops_the_query_and_fragment() {
    assert_eq!(
        redact_url("https://files.example/v=1/a.parquet?X-Amz-Signature=abc&t=1"),
        "https://files.example/v=1/a.parquet?…"
    );
    assert_eq!(redact_url("https://h/p#sig=1"), "https://h/p?…");
    assert_eq!(redact_url("https://h/p"), "https://h/p");
}

#[test]
fn drops_the_user_and_password() {
    assert_eq!(
        redact_url("http://user:p%40ss@proxy.corp:3128/"),
        "http://proxy.corp:3128/"
    );
    assert_eq!(redact_url("user:pw@proxy:3128"), "proxy:3128");
    assert_eq!(
        redact_url("https://h/p?next=a@b"),
        "https://h/p?…",
        "an @ after the host is not a user"
    );
}
