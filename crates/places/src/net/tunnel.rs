//! An HTTP `CONNECT` tunnel through a proxy, for the live feed (reqwest
//! makes its own for REST and downloads): ask the proxy for a byte pipe to
//! `host:port`, read its answer, and hand the stream back for the WebSocket
//! handshake (and TLS for `wss://`) to run through it.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::proxy::ProxyServer;

/// The longest answer head accepted from a proxy.
const MAX_HEAD: usize = 16 * 1024;

/// What the proxy answered to `CONNECT`.
#[derive(Debug, PartialEq, Eq)]
pub enum ProxyReply {
    /// Any 2xx: from here on the stream is the destination's.
    Established,
    Refused {
        status: u16,
        reason: String,
        /// The schemes of `Proxy-Authenticate` headers (`Basic`, `NTLM`).
        challenges: Vec<String>,
    },
}

/// Why a tunnel was not made. The messages name the proxy by its address,
/// never with its credentials.
#[derive(Debug, PartialEq, Eq)]
pub struct TunnelError {
    pub message: String,
    /// Retrying cannot help (the proxy wants other credentials, or forbids
    /// the destination), as opposed to a proxy or destination that is down.
    pub permanent: bool,
}

/// The request: `CONNECT host:port`, with the proxy's credentials if any.
/// `authority` is `host:port` as a URL writes it (`[::1]:443`).
pub fn connect_request(authority: &str, authorization: Option<&str>) -> Vec<u8> {
    let mut request = format!("CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n");
    if let Some(value) = authorization {
        request.push_str(&format!("Proxy-Authorization: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.into_bytes()
}

/// Reads the head of the proxy's answer (status line and headers, up to
/// and including the blank line).
pub fn parse_reply(head: &[u8]) -> Result<ProxyReply, String> {
    let text = std::str::from_utf8(head).map_err(|_| "an answer that is not text".to_owned())?;
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    let status = parts.next().and_then(|s| s.parse::<u16>().ok());
    let (true, Some(status @ 100..=599)) = (version.starts_with("HTTP/1."), status) else {
        return Err(format!(
            "an answer that is not HTTP: {:?}",
            status_line.chars().take(60).collect::<String>()
        ));
    };
    if (200..300).contains(&status) {
        return Ok(ProxyReply::Established);
    }
    let challenges = lines
        .filter_map(|line| line.split_once(':'))
        .filter(|(name, _)| name.trim().eq_ignore_ascii_case("proxy-authenticate"))
        .filter_map(|(_, value)| value.split_whitespace().next().map(str::to_owned))
        .collect();
    Ok(ProxyReply::Refused {
        status,
        reason: parts.next().unwrap_or_default().trim().to_owned(),
        challenges,
    })
}

/// The head of the answer, read a byte at a time: the bytes after the blank
/// line already belong to the destination and must stay in the stream.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(256);
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() == MAX_HEAD {
            return Err(std::io::Error::other("the answer's head is too long"));
        }
        head.push(stream.read_u8().await?);
    }
    Ok(head)
}

/// Asks `proxy` (to which `stream` is connected) for a tunnel to `authority`.
pub async fn open_tunnel<S>(
    stream: &mut S,
    proxy: &ProxyServer,
    authority: &str,
) -> Result<(), TunnelError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let proxy_name = proxy.address();
    let broken = |why: String| TunnelError {
        message: format!("the proxy {proxy_name} broke off the tunnel to {authority}: {why}"),
        permanent: false,
    };
    let authorization = proxy.basic_authorization();
    let request = connect_request(authority, authorization.as_ref().map(|a| a.expose()));
    stream
        .write_all(&request)
        .await
        .map_err(|e| broken(e.to_string()))?;
    let head = read_head(stream).await.map_err(|e| broken(e.to_string()))?;
    match parse_reply(&head) {
        Ok(ProxyReply::Established) => Ok(()),
        Ok(ProxyReply::Refused {
            status,
            reason,
            challenges,
        }) => Err(refusal(proxy, authority, status, &reason, &challenges)),
        Err(why) => Err(broken(why)),
    }
}

/// A refusal in words, with what to do about it.
pub fn refusal(
    proxy: &ProxyServer,
    authority: &str,
    status: u16,
    reason: &str,
    challenges: &[String],
) -> TunnelError {
    let what = format!(
        "the proxy {} refused the connection to {authority}: HTTP {status} {reason}",
        proxy.address()
    );
    let what = what.trim_end().to_owned();
    let hint = match status {
        407 if !challenges.is_empty()
            && !challenges.iter().any(|c| c.eq_ignore_ascii_case("basic")) =>
        {
            format!(
                "; it asks for {} authentication, and only Basic (a user and password \
                 in {}) is supported: a local relay such as cntlm or px can do the rest",
                challenges.join(" or "),
                proxy.variable
            )
        }
        407 if proxy.has_credentials() => {
            format!("; check the user and password in {}", proxy.variable)
        }
        407 => format!(
            "; it asks for credentials: set {} to http://user:password@{}:{}",
            proxy.variable, proxy.host, proxy.port
        ),
        _ => String::new(),
    };
    TunnelError {
        message: format!("{what}{hint}"),
        permanent: matches!(status, 403 | 407),
    }
}

#[cfg(test)]
#[path = "tunnel_tests.rs"]
mod tests;
