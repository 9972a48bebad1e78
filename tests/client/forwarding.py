"""A server in front of the emulator that forwards every GET, rewriting on
the way what a test chooses, so that the data stays the emulator's while the
answers break its habits (or the interface); and a context that serves any
such server on a thread of its own."""

from __future__ import annotations

import contextlib
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Forwarder(ThreadingHTTPServer):
    """Forwards every GET to ``upstream`` (an origin, no path). Subclasses
    change ``path`` (the request's target, before it is sent) and ``body``
    (the answer's, before it is passed on)."""

    daemon_threads = True

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream

        class Handler(BaseHTTPRequestHandler):
            def do_GET(handler) -> None:
                self.forward(handler)

            def log_message(handler, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def path(self, path: str) -> str:
        return path

    def body(self, path: str, status: int, body: bytes) -> bytes:
        return body

    def forward(self, handler: BaseHTTPRequestHandler) -> None:
        request = urllib.request.Request(self.upstream + self.path(handler.path))
        for name in ("Authorization", "Accept"):
            if handler.headers.get(name):
                request.add_header(name, handler.headers[name])
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, body, headers = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as error:
            status, body, headers = error.code, error.read(), error.headers
        body = self.body(handler.path, status, body)
        handler.send_response(status)
        for name in ("Content-Type", "Date"):
            if headers.get(name):
                handler.send_header(name, headers[name])
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)


@contextlib.contextmanager
def serving(server: ThreadingHTTPServer) -> Iterator[ThreadingHTTPServer]:
    """``server`` answering on a thread of its own until the block ends."""
    thread = threading.Thread(target=server.serve_forever, name=type(server).__name__)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
