//! Keeping secrets out of text meant for people: pre-signed URLs carry their
//! credentials in the query string and proxy URLs in their user part, so
//! only scheme, host and path are shown; free text from elsewhere (what a
//! caller's token provider raised) loses whatever looks like a secret.

/// `https://host/path?X-Sig=…` becomes `https://host/path?…`, and
/// `http://user:password@proxy:3128` becomes `http://proxy:3128`.
pub fn redact_url(url: &str) -> String {
    let url = without_userinfo(url);
    match url.split_once(['?', '#']) {
        Some((base, _)) => format!("{base}?…"),
        None => url,
    }
}

/// Words whose next value is a secret: `password is x`, `token=x`, `api-key: x`.
const SECRET_WORDS: [&str; 8] = [
    "password",
    "passwd",
    "secret",
    "token",
    "key",
    "authorization",
    "bearer",
    "credential",
];

/// Words between a secret's name and its value: `password is x`, `Authorization: Bearer x`.
const LINKS: [&str; 4] = ["is", "was", "bearer", "basic"];

/// Free text with what looks like a secret replaced by `***`: the value after
/// a word such as `password` or `token` (`password is x`, `token=x`), a JWT,
/// a long opaque string, and the credentials of a URL. Meant for messages of
/// unknown origin, such as what a caller's token provider raised, that the
/// package passes on to people.
pub fn redact_text(text: &str) -> String {
    let mut out = Vec::new();
    let mut secret_next = false;
    for word in text.split(' ') {
        let bare = word
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_lowercase();
        // Punctuation alone (`=`, `:`) and linking words stand between a name and its value.
        if secret_next && !bare.is_empty() && !LINKS.contains(&bare.as_str()) {
            out.push("***".to_owned());
            secret_next = false;
            continue;
        }
        out.push(redact_word(word));
        // `password`, `password:` or `token=`: the value is the next word.
        let value_follows = word
            .split_once(['=', ':'])
            .is_none_or(|(_, value)| value.is_empty());
        if names_a_secret(&bare) && value_follows {
            secret_next = true;
        }
    }
    out.join(" ")
}

fn names_a_secret(bare: &str) -> bool {
    SECRET_WORDS.iter().any(|w| bare.ends_with(w))
}

/// One word: `name=value` with a secret's name keeps the name; a JWT, a long
/// opaque string or a URL's credentials go.
fn redact_word(word: &str) -> String {
    if word.contains("://") {
        return redact_url(word);
    }
    if let Some((name, _)) = word.split_once(['=', ':']).filter(|(_, v)| !v.is_empty()) {
        let bare = name
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_lowercase();
        if names_a_secret(&bare) {
            return format!("{}***", &word[..=name.len()]);
        }
    }
    let opaque = word.trim_matches(|c: char| matches!(c, '"' | '\'' | ',' | '.' | ')' | '('));
    let secret_like = opaque.len() >= 24
        && opaque
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+' | '/' | '='))
        && opaque.chars().any(|c| c.is_ascii_digit());
    if secret_like {
        "***".to_owned()
    } else {
        word.to_owned()
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
#[path = "redact_tests.rs"]
mod tests;
