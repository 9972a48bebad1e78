"""A reverse proxy in front of moto's S3 that fails or holds requests on
demand and records every one: the faults of a real store (a 503 on a part,
a completion that never comes back), which moto itself cannot make.

It runs in a process of its own, as moto does (see ``storage_helpers``): its
threads never wait on the test's interpreter lock, and nothing it does can
raise in the test's threads. The test drives it through ``FaultProxy``, which
talks to its control path (``/__faults__/``) over HTTP. Run as a script, this
file is the proxy: ``python s3_fault_proxy.py http://127.0.0.1:<moto's port>``
prints the port it listens on, then serves until its standard input closes.

Requests are known by their S3 operation (``UploadPart``,
``CompleteMultipartUpload``...), read from the method and the query, as the
S3 API names them; a rule applies to an operation, and to the requests
whose path (``/bucket/key``, decoded) contains a given text if it names one.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from storage_helpers import ChildServer

CONTROL = "/__faults__/"

#: The S3 error codes of the statuses a rule may answer with.
_CODES = {500: "InternalError", 503: "SlowDown"}

#: Headers that belong to one hop, not to the request or the response.
_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade"}


def operation(method: str, query: str) -> str:
    """The S3 operation of a request, from its method and query."""
    params = urllib.parse.parse_qs(query, keep_blank_values=True)
    if method == "PUT":
        return "UploadPart" if "partNumber" in params else "PutObject"
    if method == "POST":
        if "uploads" in params:
            return "CreateMultipartUpload"
        return "CompleteMultipartUpload" if "uploadId" in params else "POST"
    if method == "DELETE":
        return "AbortMultipartUpload" if "uploadId" in params else "DeleteObject"
    if method == "HEAD":
        return "HeadObject"
    if method == "GET":
        if "uploads" in params:
            return "ListMultipartUploads"
        return "ListObjects" if "list-type" in params else "GetObject"
    return method


def _error_body(status: int) -> bytes:
    code = _CODES.get(status, "ServiceUnavailable")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<Error><Code>{code}</Code><Message>Injected by the test's proxy.</Message>"
        "<RequestId>fault-proxy</RequestId></Error>"
    ).encode()


class _State:
    """The rules and the log, shared by the proxy's threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rules: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.released = threading.Event()

    def verdict(self, op: str, path: str) -> dict[str, Any] | None:
        """The rule that applies to this request, if any, counted."""
        with self.lock:
            for rule in self.rules:
                if rule["operation"] != op or rule["key"] not in path:
                    continue
                if rule["action"] == "fail":
                    if rule["count"] == 0:
                        continue
                    rule["count"] -= 1
                return dict(rule)
        return None

    def record(self, entry: dict[str, Any]) -> None:
        with self.lock:
            self.log.append(entry)


def _handler(upstream: str, state: _State) -> type[BaseHTTPRequestHandler]:
    target = urllib.parse.urlsplit(upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass  # the log is the state's, read through the control path

        def _body(self) -> bytes:
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                chunks = []
                while size := int(self.rfile.readline().split(b";")[0], 16):
                    chunks.append(self.rfile.read(size))
                    self.rfile.readline()
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _answer(
            self, status: int, body: bytes, headers: list[tuple[str, str]] | None = None
        ) -> None:
            headers = headers or []
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if self.command != "HEAD" or not any(n.lower() == "content-length" for n, _ in headers):
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _control(self, body: bytes) -> None:
            order = self.path[len(CONTROL) :]
            if order == "rule":
                rule = json.loads(body)
                with state.lock:
                    state.rules.append(rule)
                    if rule["action"] == "hold":
                        state.released.clear()
                answer: Any = None
            elif order == "clear":
                with state.lock:
                    state.rules.clear()
                state.released.set()
                answer = None
            elif order == "log":
                with state.lock:
                    answer = list(state.log)
            else:
                self._answer(404, b"")
                return
            self._answer(200, json.dumps(answer).encode(), [("Content-Type", "application/json")])

        def _forward(self, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            try:
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
                headers["Content-Length"] = str(len(body))
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                kept = [(k, v) for k, v in response.getheaders() if k.lower() not in _HOP]
                if self.command != "HEAD":
                    kept = [(k, v) for k, v in kept if k.lower() != "content-length"]
                return response.status, kept, data
            finally:
                connection.close()

        def _serve(self) -> None:
            body = self._body()
            if self.path.startswith(CONTROL):
                self._control(body)
                return
            quoted, _, query = self.path.partition("?")
            path = urllib.parse.unquote(quoted)  # "/bucket/key", as S3 reads it
            op = operation(self.command, query)
            rule = state.verdict(op, path)
            entry = {"operation": op, "method": self.command, "path": path, "query": query}
            if rule is not None and rule["action"] == "hold":
                # Held until released, then dropped unanswered and never
                # forwarded: the store never saw it.
                state.record({**entry, "status": "held"})
                state.released.wait(timeout=60)
                self.close_connection = True
                return
            if rule is not None:
                state.record({**entry, "status": rule["status"]})
                self._answer(
                    rule["status"],
                    _error_body(rule["status"]),
                    [("Content-Type", "application/xml")],
                )
                return
            status, headers, data = self._forward(body)
            state.record({**entry, "status": status})
            self._answer(status, data, headers)

        def _guarded(self) -> None:
            try:
                self._serve()
            except (ConnectionError, TimeoutError):
                self.close_connection = True  # a client gone (killed) or a store gone

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = _guarded

    return Handler


def serve(upstream: str) -> None:
    """Serves as a proxy of ``upstream`` until standard input closes."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(upstream, _State()))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()
    server.server_close()


class FaultProxy(ChildServer):
    """The proxy in a child process, in front of ``upstream``; ``endpoint``
    is its URL, to give marketcurves in place of the store's."""

    def __init__(self, upstream: str, log: Path) -> None:
        super().__init__([sys.executable, __file__, upstream], log, "the fault proxy")
        # No proxy of the machine's between the test and its own proxy.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _call(self, order: str, payload: Any = None) -> Any:
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(
            f"{self.endpoint}{CONTROL}{order}", data=data, method="POST" if data else "GET"
        )
        with self._opener.open(request, timeout=10) as response:
            return json.loads(response.read())

    def fail(self, operation: str, count: int, *, status: int = 503, key: str = "") -> None:
        """The next ``count`` requests of ``operation`` (on paths
        ``/bucket/key`` containing ``key``) are answered ``status`` with an S3 error body, unforwarded;
        a count of -1 fails them all until ``clear``."""
        rule = {"action": "fail", "operation": operation, "count": count, "status": status}
        self._call("rule", {**rule, "key": key})

    def hold(self, operation: str, *, key: str = "") -> None:
        """Requests of ``operation`` (on paths containing ``key``) wait,
        unforwarded, until ``clear``, then are dropped unanswered."""
        self._call("rule", {"action": "hold", "operation": operation, "key": key})

    def clear(self) -> None:
        """Removes every rule and lets held requests go (unanswered)."""
        self._call("clear", {})

    def requests(self, operation: str | None = None, *, key: str = "") -> list[dict[str, Any]]:
        """The requests seen, in order (``operation``, ``method``, ``path``,
        ``query``, ``status``: the one answered, or ``"held"``), only those
        of ``operation`` on paths (``/bucket/key``, decoded) containing
        ``key`` if given."""
        return [
            entry
            for entry in self._call("log")
            if (operation is None or entry["operation"] == operation) and key in entry["path"]
        ]


if __name__ == "__main__":
    serve(sys.argv[1])
