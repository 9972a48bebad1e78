//! Keeping secrets out of text meant for people: pre-signed URLs carry their
//! credentials in the query string and proxy URLs in their user part, so
//! only scheme, host and path are shown.

/// `https://host/path?X-Sig=…` becomes `https://host/path?…`, and
/// `http://user:password@proxy:3128` becomes `http://proxy:3128`.
pub fn redact_url(url: &str) -> String {
    let url = without_userinfo(url);
    match url.split_once(['?', '#']) {
        Some((base, _)) => format!("{base}?…"),
        None => url,
    }
}

fn without_userinfo(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_owned();
    };
    let rest = &rest[at + 1..];
    match scheme {
        Some(scheme) => format!("{scheme}://{rest}"),
        None => rest.to_owned(),
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
}
