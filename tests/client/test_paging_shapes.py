"""Paging as other implementations of the interface may do it: without a
``last`` link (the client then walks ``next``), or with it on some
resources only. Every page still arrives once, in order.

A proxy in front of the emulator rewrites the page envelopes it passes on,
so the data is the emulator's and the two answers can be compared."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

import marketcurves as mc

TENORS = ["Jul 25", "Aug 25", "Q3 25"]
START, END = "2025-04-01", "2025-06-20"  # three windows per tenor


class EnvelopeRewriter(ThreadingHTTPServer):
    """Forwards every GET to ``upstream``; in paged answers, drops the
    ``last`` link of the tenors for which ``drop_last(tenor)`` is true."""

    daemon_threads = True

    def __init__(self, upstream: str, drop_last: Any) -> None:
        self.upstream = upstream
        self.drop_last = drop_last
        self.pages_without_last = 0

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

    def forward(self, handler: BaseHTTPRequestHandler) -> None:
        request = urllib.request.Request(self.upstream + handler.path)
        for name in ("Authorization", "Accept"):
            if handler.headers.get(name):
                request.add_header(name, handler.headers[name])
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, body, headers = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as error:
            status, body, headers = error.code, error.read(), error.headers
        tenor = unquote(urlsplit(handler.path).path.rsplit("/", 1)[-1])
        if status == 200 and self.drop_last(tenor):
            envelope = json.loads(body)
            if isinstance(envelope, dict) and "last" in envelope:
                envelope["last"] = None
                self.pages_without_last += 1
                body = json.dumps(envelope).encode()
        handler.send_response(status)
        for name in ("Content-Type", "Date"):
            if headers.get(name):
                handler.send_header(name, headers[name])
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)


@pytest.fixture
def rewriter(em: Any, request: pytest.FixtureRequest) -> Iterator[EnvelopeRewriter]:
    server = EnvelopeRewriter(em.base_url.removesuffix("/v2"), request.param)
    thread = threading.Thread(target=server.serve_forever, name="envelope-rewriter")
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize(
    "rewriter",
    [lambda tenor: True, lambda tenor: tenor == "Aug 25"],
    ids=["no-last-link", "last-link-on-some-tenors"],
    indirect=True,
)
def test_pages_without_a_last_link_are_walked_and_give_the_same_table(
    em: Any, client: mc.Client, coarse: dict[str, Any], rewriter: EnvelopeRewriter
) -> None:
    expected = client.intraday_history(coarse["id"], START, END, TENORS)
    assert expected.num_rows > 3 * 3 * 100, "every window spans pages"
    base = rewriter.url + urlsplit(em.base_url).path
    through = mc.Client(base_url=base, token=em.token(), max_concurrency=4)
    table = through.intraday_history(coarse["id"], START, END, TENORS)
    assert rewriter.pages_without_last > 3, "the proxy took the last links away"
    assert table.equals(expected)
    today = through.intraday(coarse["id"], "Aug 25")
    assert today.equals(client.intraday(coarse["id"], "Aug 25"))
