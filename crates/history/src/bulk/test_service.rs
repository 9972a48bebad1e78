//! A scripted bulk service on loopback for tests: job submission and status
//! as docs/protocol.md#bulk-download describes them, and Parquet files
//! behind "pre-signed" URLs, with the faults a test scripts. Plain HTTP/1.1,
//! one request per connection.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

pub(crate) use test_support::{parquet_file, TempFolder};

use crate::rest::auth::Credentials;
use crate::rest::http::{Http, HttpConfig};
use places::net::Network;
use places::Secret;

/// One file every job lists: its partition `path`, its name and its bytes.
#[derive(Clone)]
pub(crate) struct ServedFile {
    pub path: String,
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What the service does; a test may change it while a download runs.
#[derive(Default)]
pub(crate) struct Script {
    pub files: Vec<ServedFile>,
    /// RUNNING answers to each job's first status requests.
    pub running_polls: u32,
    /// How many of the next jobs end FAILED.
    pub failing_jobs: u32,
    /// How many of the next file requests get 403, as expired URLs do.
    pub expired_downloads: u32,
    /// The range the service grants instead of the one asked for.
    pub narrowed_to: Option<(&'static str, &'static str)>,
    /// How many of the next file responses break off halfway through.
    pub cut_downloads: u32,
    /// Files served with no `ETag`, as a server that names no version.
    pub no_validators: bool,
}

/// One answer: status, extra headers, body, and whether the connection is
/// closed halfway through the body.
struct Reply {
    status: u16,
    headers: Vec<String>,
    body: Vec<u8>,
    cut: bool,
}

impl Reply {
    fn plain(status: u16, body: Vec<u8>) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body,
            cut: false,
        }
    }
}

#[derive(Default)]
struct State {
    script: Script,
    /// Per job: whether it fails, and the status requests it has had.
    jobs: Vec<(bool, u32)>,
    /// `METHOD target` of every request, in order.
    requests: Vec<String>,
}

pub(crate) struct TestService {
    origin: String,
    state: Arc<Mutex<State>>,
    accepting: JoinHandle<()>,
}

impl TestService {
    pub(crate) async fn start(script: Script) -> TestService {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State {
            script,
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        let files_origin = origin.clone();
        let accepting = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, Arc::clone(&shared), files_origin.clone()));
            }
        });
        TestService {
            origin,
            state,
            accepting,
        }
    }

    /// A client of this service with a fixed token and no retries.
    pub(crate) fn http(&self) -> Http {
        Http::new(HttpConfig {
            base_url: format!("{}/v2", self.origin),
            credentials: Credentials::Token(Secret::new("test-token")),
            max_concurrency: 4,
            timeout: Duration::from_secs(5),
            max_retries: 0,
            network: Network::default(),
            max_response_bytes: crate::rest::http::DEFAULT_MAX_RESPONSE_BYTES,
        })
        .unwrap()
    }

    /// Changes the script, e.g. while a download runs.
    pub(crate) fn change(&self, change: impl FnOnce(&mut Script)) {
        change(&mut self.state.lock().unwrap().script);
    }

    /// `METHOD target` of every request so far.
    pub(crate) fn requests(&self) -> Vec<String> {
        self.state.lock().unwrap().requests.clone()
    }
}

impl Drop for TestService {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

async fn serve(mut stream: TcpStream, state: Arc<Mutex<State>>, origin: String) {
    let mut head = Vec::new();
    let mut buffer = [0; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buffer[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let mut words = head.lines().next().unwrap_or_default().split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let header = |name: &str| {
        head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    };
    let asked = Asked {
        range: header("range"),
        if_range: header("if-range"),
    };
    let reply = answer(&mut state.lock().unwrap(), method, target, &asked, &origin);
    let mut head = format!(
        "HTTP/1.1 {} Scripted\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for line in &reply.headers {
        head.push_str(line);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes()).await;
    if reply.cut {
        let _ = stream.write_all(&reply.body[..reply.body.len() / 2]).await;
        let _ = stream.flush().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        return;
    }
    let _ = stream.write_all(&reply.body).await;
    let _ = stream.shutdown().await;
}

/// The headers of a file request that matter: `Range` and `If-Range`.
struct Asked {
    range: Option<String>,
    if_range: Option<String>,
}

/// A strong entity tag of `bytes`: FNV-1a, as a storage service would give
/// a digest.
pub(crate) fn etag_of(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01B3)
    });
    format!("\"{hash:016x}\"")
}

/// A file's answer: whole, or from the offset a `Range` asks for when any
/// `If-Range` names the file's present version.
fn serve_file(script: &mut Script, bytes: &[u8], asked: &Asked) -> Reply {
    let etag = etag_of(bytes);
    let offset = asked
        .range
        .as_deref()
        .and_then(|r| {
            r.strip_prefix("bytes=")?
                .strip_suffix('-')?
                .parse::<usize>()
                .ok()
        })
        .filter(|_| asked.if_range.as_deref().is_none_or(|v| v == etag));
    let mut headers = Vec::new();
    if !script.no_validators {
        headers.push(format!("ETag: {etag}"));
    }
    let (status, body) = match offset {
        Some(offset) if offset >= bytes.len() => {
            return Reply::plain(416, b"range not satisfiable".to_vec())
        }
        Some(offset) => {
            let last = bytes.len() - 1;
            headers.push(format!(
                "Content-Range: bytes {offset}-{last}/{}",
                bytes.len()
            ));
            (206, bytes[offset..].to_vec())
        }
        None => (200, bytes.to_vec()),
    };
    let cut = script.cut_downloads > 0;
    script.cut_downloads -= u32::from(cut);
    Reply {
        status,
        headers,
        body,
        cut,
    }
}

fn json_body(value: Value) -> Vec<u8> {
    value.to_string().into_bytes()
}

fn answer(state: &mut State, method: &str, target: &str, asked: &Asked, origin: &str) -> Reply {
    let range = asked
        .range
        .as_deref()
        .map(|r| format!(" Range: {r}"))
        .unwrap_or_default();
    state.requests.push(format!("{method} {target}{range}"));
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if method == "POST" && path == "/v2/bulk-download/job-submit" {
        let asked = |key: &str| {
            form_urlencoded::parse(query.as_bytes())
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        let fails = state.script.failing_jobs > 0;
        state.script.failing_jobs -= u32::from(fails);
        state.jobs.push((fails, 0));
        let (start, end) = match state.script.narrowed_to {
            Some((start, end)) => (start.to_owned(), end.to_owned()),
            None => (asked("startDate"), asked("endDate")),
        };
        let range = json!({"effective_start": start, "effective_end": end});
        let job_id = format!("job-{}", state.jobs.len());
        return Reply::plain(
            202,
            json_body(json!({"job_id": job_id, "date_range": range})),
        );
    }
    if let Some(number) = path.strip_prefix("/v2/bulk-download/job-status/job-") {
        let Some((fails, polls)) = number
            .parse::<usize>()
            .ok()
            .and_then(|n| state.jobs.get_mut(n.wrapping_sub(1)))
        else {
            return Reply::plain(404, json_body(json!({"message": "no such job"})));
        };
        *polls += 1;
        if *polls <= state.script.running_polls {
            return Reply::plain(200, json_body(json!({"status": "RUNNING"})));
        }
        if *fails {
            return Reply::plain(200, json_body(json!({"status": "FAILED"})));
        }
        let urls: Vec<Value> = state
            .script
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                json!({
                    "url": format!("{origin}/files/job-{number}/{i}/{}?X-Signature=secret", f.name),
                    "path": f.path,
                    "size": f.bytes.len(),
                })
            })
            .collect();
        return Reply::plain(
            200,
            json_body(json!({"status": "SUCCEEDED", "presigned_urls": urls})),
        );
    }
    if method == "GET" && path.starts_with("/files/") {
        if state.script.expired_downloads > 0 {
            state.script.expired_downloads -= 1;
            return Reply::plain(403, b"Request has expired".to_vec());
        }
        // `/files/job-<n>/<index>/<name>`: two files may share a name.
        let index = path
            .rsplit('/')
            .nth(1)
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(file) = index.and_then(|i| state.script.files.get(i)) {
            let bytes = file.bytes.clone();
            return serve_file(&mut state.script, &bytes, asked);
        }
    }
    Reply::plain(404, json_body(json!({"message": "not found"})))
}
