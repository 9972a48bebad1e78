//! A scripted bulk service on loopback for tests: job submission and status
//! as docs/protocol.md#bulk-download describes them, and Parquet files
//! behind "pre-signed" URLs, with the faults a test scripts. Plain HTTP/1.1,
//! one request per connection.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow_array::{Int64Array, RecordBatch};
use parquet::arrow::ArrowWriter;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use crate::net::Network;
use crate::rest::auth::Credentials;
use crate::rest::http::{Http, HttpConfig};
use crate::secret::Secret;

/// A Parquet file of `rows` rows.
pub fn parquet_file(rows: i64) -> Vec<u8> {
    let batch =
        RecordBatch::try_from_iter([("id", Arc::new(Int64Array::from_iter_values(0..rows)) as _)])
            .unwrap();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    bytes
}

/// One file every job lists: its partition `path`, its name and its bytes.
#[derive(Clone)]
pub struct ServedFile {
    pub path: String,
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What the service does; a test may change it while a download runs.
#[derive(Default)]
pub struct Script {
    pub files: Vec<ServedFile>,
    /// RUNNING answers to each job's first status requests.
    pub running_polls: u32,
    /// How many of the next jobs end FAILED.
    pub failing_jobs: u32,
    /// How many of the next file requests get 403, as expired URLs do.
    pub expired_downloads: u32,
    /// The range the service grants instead of the one asked for.
    pub narrowed_to: Option<(&'static str, &'static str)>,
}

#[derive(Default)]
struct State {
    script: Script,
    /// Per job: whether it fails, and the status requests it has had.
    jobs: Vec<(bool, u32)>,
    /// `METHOD target` of every request, in order.
    requests: Vec<String>,
}

pub struct TestService {
    origin: String,
    state: Arc<Mutex<State>>,
    accepting: JoinHandle<()>,
}

impl TestService {
    pub async fn start(script: Script) -> TestService {
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
    pub fn http(&self) -> Http {
        Http::new(HttpConfig {
            base_url: format!("{}/v2", self.origin),
            credentials: Credentials::Token(Secret::new("test-token")),
            max_concurrency: 4,
            timeout: Duration::from_secs(5),
            max_retries: 0,
            network: Network::default(),
        })
        .unwrap()
    }

    /// Changes the script, e.g. while a download runs.
    pub fn change(&self, change: impl FnOnce(&mut Script)) {
        change(&mut self.state.lock().unwrap().script);
    }

    /// `METHOD target` of every request so far.
    pub fn requests(&self) -> Vec<String> {
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
    let (status, body) = answer(&mut state.lock().unwrap(), method, target, &origin);
    let reply = format!(
        "HTTP/1.1 {status} Scripted\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes()).await;
    let _ = stream.write_all(&body).await;
    let _ = stream.shutdown().await;
}

fn json_body(value: Value) -> Vec<u8> {
    value.to_string().into_bytes()
}

fn answer(state: &mut State, method: &str, target: &str, origin: &str) -> (u16, Vec<u8>) {
    state.requests.push(format!("{method} {target}"));
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
        return (
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
            return (404, json_body(json!({"message": "no such job"})));
        };
        *polls += 1;
        if *polls <= state.script.running_polls {
            return (200, json_body(json!({"status": "RUNNING"})));
        }
        if *fails {
            return (200, json_body(json!({"status": "FAILED"})));
        }
        let urls: Vec<Value> = state
            .script
            .files
            .iter()
            .map(|f| {
                json!({
                    "url": format!("{origin}/files/job-{number}/{}?X-Signature=secret", f.name),
                    "path": f.path,
                    "size": f.bytes.len(),
                })
            })
            .collect();
        return (
            200,
            json_body(json!({"status": "SUCCEEDED", "presigned_urls": urls})),
        );
    }
    if method == "GET" && path.starts_with("/files/") {
        if state.script.expired_downloads > 0 {
            state.script.expired_downloads -= 1;
            return (403, b"Request has expired".to_vec());
        }
        let name = path.rsplit('/').next().unwrap_or_default();
        if let Some(file) = state.script.files.iter().find(|f| f.name == name) {
            return (200, file.bytes.clone());
        }
    }
    (404, json_body(json!({"message": "not found"})))
}

/// A folder of its own under the system's temporary folder, removed on drop.
pub struct TempFolder(pub std::path::PathBuf);

impl TempFolder {
    pub fn new(name: &str) -> TempFolder {
        let path =
            std::env::temp_dir().join(format!("marketcurves-bulk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempFolder(path)
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
