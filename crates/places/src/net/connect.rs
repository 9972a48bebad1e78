//! A TCP stream to a URL's host, directly or through a `CONNECT` tunnel of
//! the proxy the environment names for it: what the live feed runs its
//! WebSocket (and TLS) over.

use reqwest::Url;
use tokio::net::TcpStream;

use super::tunnel::{open_tunnel, TunnelError};
use super::Network;

/// `host:port` of `url`, as `CONNECT` and messages write it (`[::1]:443`).
pub fn authority(url: &Url) -> Option<String> {
    Some(format!(
        "{}:{}",
        url.host_str()?,
        url.port_or_known_default()?
    ))
}

/// A connected stream to `url`'s host (Nagle off: the feed's messages are
/// small and a pong should not wait).
pub async fn open_stream(network: &Network, url: &Url) -> Result<TcpStream, TunnelError> {
    let passing = |message: String| TunnelError {
        message,
        permanent: false,
    };
    let target = authority(url).ok_or_else(|| TunnelError {
        message: format!(
            "no host or port in {}",
            domain::redact::redact_url(url.as_str())
        ),
        permanent: true,
    })?;
    let stream = match network.proxy_for(url) {
        None => {
            let host = url.host_str().unwrap_or_default();
            let host = host.trim_start_matches('[').trim_end_matches(']');
            let port = url.port_or_known_default().unwrap_or_default();
            TcpStream::connect((host, port))
                .await
                .map_err(|e| passing(format!("cannot connect to {target}: {e}")))?
        }
        Some(proxy) => {
            let proxy_host = proxy.host.trim_start_matches('[').trim_end_matches(']');
            let mut stream = TcpStream::connect((proxy_host, proxy.port))
                .await
                .map_err(|e| {
                    passing(format!(
                        "cannot connect to the proxy {} (from {}): {e}",
                        proxy.address(),
                        proxy.variable
                    ))
                })?;
            open_tunnel(&mut stream, proxy, &target).await?;
            log::debug!(
                target: "marketcurves.net",
                "tunnel to {target} through the proxy {}",
                proxy.address()
            );
            stream
        }
    };
    let _ = stream.set_nodelay(true);
    Ok(stream)
}
