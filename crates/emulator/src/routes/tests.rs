//! Requests to a started emulator written as raw HTTP/1.1, so that a test
//! sees a response's head as it goes on the wire (the crate needs no HTTP
//! client otherwise).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::control::tests::at;
use crate::{Emulator, EmulatorConfig};

/// An emulator serving with its clock stopped at `instant` (RFC 3339).
pub(crate) async fn stopped_at(instant: &str) -> Emulator {
    Emulator::start(EmulatorConfig::stopped_at(at(instant)))
        .await
        .unwrap()
}

/// A response's status and headers.
pub(crate) struct Answer {
    pub status: u16,
    headers: Vec<(String, String)>,
}

impl Answer {
    /// The value of header `name` (any case); fails the test if it came twice.
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        let mut values = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str());
        let first = values.next();
        assert!(values.next().is_none(), "header {name} sent twice");
        first
    }
}

/// Sends one request on a connection of its own and reads the response's head.
pub(crate) async fn send(
    emulator: &Emulator,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let addr = emulator.addr();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut received = Vec::new();
    // A response broken off by a fault ends in an error: its head came before.
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut received))
        .await
        .expect("an answer within 5 s");
    let text = String::from_utf8_lossy(&received);
    let (head, _) = text.split_once("\r\n\r\n").expect("a whole head");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .map(|line| {
            let (name, value) = line.split_once(':').unwrap();
            (name.trim().to_owned(), value.trim().to_owned())
        })
        .collect();
    Answer { status, headers }
}
