use tokio::io::{duplex, AsyncReadExt, AsyncWriteExt};

use super::*;

fn refused(status: u16, reason: &str, challenges: &[&str]) -> ProxyReply {
    ProxyReply::Refused {
        status,
        reason: reason.into(),
        challenges: challenges.iter().map(|c| (*c).to_owned()).collect(),
    }
}

#[test]
fn the_request_names_the_destination_and_the_credentials() {
    let plain = connect_request("live.example:443", None);
    assert_eq!(
        plain,
        b"CONNECT live.example:443 HTTP/1.1\r\nHost: live.example:443\r\n\r\n"
    );
    let with_auth = connect_request("[::1]:80", Some("Basic dTpw"));
    assert_eq!(
        String::from_utf8(with_auth).unwrap(),
        "CONNECT [::1]:80 HTTP/1.1\r\nHost: [::1]:80\r\nProxy-Authorization: Basic dTpw\r\n\r\n"
    );
}

#[test]
fn any_2xx_establishes_the_tunnel() {
    for head in [
        &b"HTTP/1.1 200 Connection established\r\n\r\n"[..],
        b"HTTP/1.0 200 OK\r\nVia: squid\r\n\r\n",
        b"HTTP/1.1 204 \r\n\r\n",
    ] {
        assert_eq!(parse_reply(head), Ok(ProxyReply::Established));
    }
}

#[test]
fn refusals_keep_status_reason_and_challenges() {
    assert_eq!(
        parse_reply(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"),
        Ok(refused(403, "Forbidden", &[]))
    );
    assert_eq!(
        parse_reply(b"HTTP/1.1 502 Bad Gateway\r\n\r\n"),
        Ok(refused(502, "Bad Gateway", &[]))
    );
    let head = b"HTTP/1.1 407 Proxy Authentication Required\r\n\
        proxy-authenticate: NTLM\r\nProxy-Authenticate: Basic realm=\"corp\"\r\n\r\n";
    assert_eq!(
        parse_reply(head),
        Ok(refused(
            407,
            "Proxy Authentication Required",
            &["NTLM", "Basic"]
        ))
    );
    assert_eq!(
        parse_reply(b"HTTP/1.1 407\r\n\r\n"),
        Ok(refused(407, "", &[]))
    );
}

#[test]
fn an_answer_that_is_not_http_is_an_error() {
    for head in [
        &b"SSH-2.0-OpenSSH_9.6\r\n\r\n"[..],
        b"HTTP/1.1 OK\r\n\r\n",
        b"HTTP/1.1 999 Odd\r\n\r\n",
        b"\xff\xfe\r\n\r\n",
        b"HTTP/2 200\r\n\r\n",
    ] {
        assert!(parse_reply(head).is_err(), "{head:?}");
    }
}

fn proxy(url: &str) -> ProxyServer {
    ProxyServer::parse("HTTPS_PROXY", url).unwrap()
}

/// Runs `open_tunnel` against a scripted proxy that answers `answer`;
/// returns the result, what the proxy received, and what the stream then
/// reads (the destination's first bytes).
async fn handshake(
    proxy: &ProxyServer,
    answer: &'static [u8],
) -> (Result<(), TunnelError>, String, Vec<u8>) {
    let (mut client, mut server) = duplex(4096);
    let scripted = tokio::spawn(async move {
        let mut received = Vec::new();
        while !received.ends_with(b"\r\n\r\n") {
            received.push(server.read_u8().await.unwrap());
        }
        server.write_all(answer).await.unwrap();
        String::from_utf8(received).unwrap()
    });
    let result = open_tunnel(&mut client, proxy, "live.example:443").await;
    let received = scripted.await.unwrap();
    let mut rest = Vec::new();
    if result.is_ok() {
        client.read_to_end(&mut rest).await.unwrap();
    }
    (result, received, rest)
}

#[tokio::test]
async fn the_destinations_first_bytes_stay_in_the_stream() {
    let (result, received, rest) = handshake(
        &proxy("http://u:pw@proxy.corp:3128"),
        b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01",
    )
    .await;
    assert_eq!(result, Ok(()));
    assert!(received.starts_with("CONNECT live.example:443 HTTP/1.1\r\n"));
    assert!(received.contains("Proxy-Authorization: Basic dTpwdw==\r\n"));
    assert_eq!(rest, b"\x16\x03\x01");
}

#[tokio::test]
async fn a_refusal_names_the_proxy_but_not_its_password() {
    let with_password = proxy("http://user:hunter2@proxy.corp:3128");
    let (result, _, _) = handshake(
        &with_password,
        b"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n",
    )
    .await;
    let error = result.unwrap_err();
    assert!(error.permanent);
    assert!(
        error.message.contains("http://proxy.corp:3128"),
        "{}",
        error.message
    );
    assert!(error.message.contains("407"), "{}", error.message);
    assert!(error
        .message
        .contains("check the user and password in HTTPS_PROXY"));
    assert!(!error.message.contains("hunter2") && !error.message.contains("user:"));

    let anonymous = proxy("proxy.corp:3128");
    let (result, received, _) = handshake(&anonymous, b"HTTP/1.1 407 Auth\r\n\r\n").await;
    assert!(!received.contains("Proxy-Authorization"));
    assert!(result
        .unwrap_err()
        .message
        .contains("it asks for credentials"));

    let (result, _, _) = handshake(
        &anonymous,
        b"HTTP/1.1 407 Auth\r\nProxy-Authenticate: Negotiate\r\nProxy-Authenticate: NTLM\r\n\r\n",
    )
    .await;
    let message = result.unwrap_err().message;
    assert!(
        message.contains("Negotiate or NTLM authentication"),
        "{message}"
    );

    let (result, _, _) = handshake(&anonymous, b"HTTP/1.1 403 Forbidden\r\n\r\n").await;
    let error = result.unwrap_err();
    assert!(error.permanent);
    assert!(
        error.message.ends_with("HTTP 403 Forbidden"),
        "{}",
        error.message
    );

    let (result, _, _) = handshake(&anonymous, b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
    assert!(!result.unwrap_err().permanent, "a gateway error may pass");
}

#[tokio::test]
async fn a_proxy_that_hangs_up_is_a_passing_failure() {
    let (mut client, server) = duplex(4096);
    drop(server);
    let error = open_tunnel(&mut client, &proxy("p:1"), "x:443")
        .await
        .unwrap_err();
    assert!(!error.permanent);
    assert!(error.message.contains("http://p:1"), "{}", error.message);
}
