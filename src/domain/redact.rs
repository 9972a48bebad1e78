//! Keeping secrets out of text meant for people: pre-signed URLs carry their
//! credentials in the query string, so only scheme, host and path are shown.

/// `https://host/path?X-Sig=…` becomes `https://host/path?…`.
pub fn redact_url(url: &str) -> String {
    match url.split_once(['?', '#']) {
        Some((base, _)) => format!("{base}?…"),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_the_query_and_fragment() {
        assert_eq!(
            redact_url("https://files.example/v=1/a.parquet?X-Amz-Signature=abc&t=1"),
            "https://files.example/v=1/a.parquet?…"
        );
        assert_eq!(redact_url("https://h/p#sig=1"), "https://h/p?…");
        assert_eq!(redact_url("https://h/p"), "https://h/p");
    }
}
