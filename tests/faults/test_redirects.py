"""The bearer token never leaves the service's host: not across a redirect
to another host or port. (Pre-signed URLs are covered by the emulator, which
refuses a download that carries an Authorization header.)"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

import marketcurves as mc

TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl"


class Recorder(ThreadingHTTPServer):
    """Answers every GET with ``status`` (and ``location``), recording headers."""

    daemon_threads = True

    def __init__(self, host: str, status: int, location: str | None = None) -> None:
        self.status = status
        self.location = location
        self.seen: list[dict[str, str]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(handler) -> None:
                self.seen.append({k.lower(): v for k, v in handler.headers.items()})
                handler.send_response(self.status)
                if self.location:
                    handler.send_header("Location", self.location)
                body = b'{"message": "elsewhere"}'
                handler.send_header("Content-Type", "application/json")
                handler.send_header("Content-Length", str(len(body)))
                handler.end_headers()
                handler.wfile.write(body)

            def log_message(handler, *args: Any) -> None:
                pass

        super().__init__((host, 0), Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


@pytest.mark.parametrize("other_host", ["localhost", "127.0.0.1"], ids=["host", "port"])
def test_a_redirect_elsewhere_does_not_carry_the_token(other_host: str) -> None:
    elsewhere = Recorder(other_host, 200)
    origin = Recorder("127.0.0.1", 302, location=elsewhere.url + "/v2/ongoing/last-settlement/x")
    threads = [
        threading.Thread(target=server.serve_forever, name="redirect-recorder")
        for server in (elsewhere, origin)
    ]
    for thread in threads:
        thread.start()
    try:
        client = mc.Client(base_url=origin.url + "/v2", token=TOKEN, max_retries=0)
        try:
            client.last_settlement("x")
        except mc.MarketCurvesError as error:
            assert TOKEN not in str(error)
        assert origin.seen and origin.seen[0].get("authorization") == f"Bearer {TOKEN}"
        assert all("authorization" not in headers for headers in elsewhere.seen), elsewhere.seen
    finally:
        for server in (elsewhere, origin):
            server.shutdown()
            server.server_close()
        for thread in threads:
            thread.join()
