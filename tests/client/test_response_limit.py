"""A response body longer than the client takes in: refused with a clear
error as soon as its length is declared or read, never buffered whole, and
not retried."""

from __future__ import annotations

from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from forwarding import serving

import marketcurves as mc

LIMIT = 1024 * 1024


class Flood(ThreadingHTTPServer):
    """Answers every GET with a body of ``size`` bytes: declared in a
    ``Content-Length``, or streamed in chunks with none."""

    daemon_threads = True

    def __init__(self, size: int, declared: bool) -> None:
        self.requests = 0
        self.sent = 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(handler, *args: object) -> None:
                pass

            def do_GET(handler) -> None:
                self.requests += 1
                handler.send_response(200)
                handler.send_header("Content-Type", "application/json")
                if declared:
                    handler.send_header("Content-Length", str(size))
                else:
                    handler.send_header("Transfer-Encoding", "chunked")
                handler.send_header("Connection", "close")
                handler.end_headers()
                piece = b'{"items": [' + b"1," * 32_000
                try:
                    while self.sent < size:
                        if declared:
                            handler.wfile.write(piece)
                        else:
                            handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                        self.sent += len(piece)
                except OSError:
                    return  # the client hung up: what the test wants

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v2"


@pytest.fixture(params=[True, False], ids=["declared", "streamed"])
def flood(request: pytest.FixtureRequest) -> Iterator[Flood]:
    with serving(Flood(size=500 * LIMIT, declared=request.param)) as server:
        yield server


def test_a_body_longer_than_the_limit_is_refused_not_buffered(flood):
    client = mc.Client(base_url=flood.base_url, token="t", max_response_bytes=LIMIT)
    with pytest.raises(mc.ServiceError, match="longer than the 1 MiB allowed") as caught:
        client.catalogue()
    assert "max_response_bytes" in str(caught.value)
    assert flood.requests == 1, "not retried"
    assert flood.sent < 100 * LIMIT, "the client stopped reading"


def test_the_limit_is_checked(em):
    for bad in (0, 1023, -1, 1.5, "big", True):
        with pytest.raises(mc.InvalidRequest, match="max_response_bytes"):
            mc.Client(base_url=em.base_url, token="t", max_response_bytes=bad)
