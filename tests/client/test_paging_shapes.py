"""Paging as other implementations of the interface may do it: without a
``last`` link (the client then walks ``next``), or with it on some
resources only. Every page still arrives once, in order.

A proxy in front of the emulator rewrites the page envelopes it passes on,
so the data is the emulator's and the two answers can be compared."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from forwarding import Forwarder, serving

import marketcurves as mc

TENORS = ["Jul 25", "Aug 25", "Q3 25"]
FIRST_DAY, LAST_DAY = "2025-04-01", "2025-06-20"  # three windows per tenor


class EnvelopeRewriter(Forwarder):
    """Drops, in paged answers, the ``last`` link of the tenors for which
    ``drop_last(tenor)`` is true."""

    def __init__(self, upstream: str, drop_last: Any) -> None:
        super().__init__(upstream)
        self.drop_last = drop_last
        self.pages_without_last = 0

    def body(self, path: str, status: int, body: bytes) -> bytes:
        tenor = unquote(urlsplit(path).path.rsplit("/", 1)[-1])
        if status == 200 and self.drop_last(tenor):
            envelope = json.loads(body)
            if isinstance(envelope, dict) and "last" in envelope:
                envelope["last"] = None
                self.pages_without_last += 1
                body = json.dumps(envelope).encode()
        return body


@pytest.fixture
def rewriter(em: Any, request: pytest.FixtureRequest) -> Iterator[EnvelopeRewriter]:
    with serving(EnvelopeRewriter(em.base_url.removesuffix("/v2"), request.param)) as server:
        yield server


@pytest.mark.parametrize(
    "rewriter",
    [lambda tenor: True, lambda tenor: tenor == "Aug 25"],
    ids=["no-last-link", "last-link-on-some-tenors"],
    indirect=True,
)
def test_pages_without_a_last_link_are_walked_and_give_the_same_table(
    em: Any, client: mc.Client, coarse: dict[str, Any], rewriter: EnvelopeRewriter
) -> None:
    expected = client.intraday_history(coarse["id"], FIRST_DAY, LAST_DAY, TENORS)
    assert expected.num_rows > 3 * 3 * 100, "every window spans pages"
    base = rewriter.url + urlsplit(em.base_url).path
    through = mc.Client(base_url=base, token=em.token(), max_concurrency=4)
    table = through.intraday_history(coarse["id"], FIRST_DAY, LAST_DAY, TENORS)
    assert rewriter.pages_without_last > 3, "the proxy took the last links away"
    assert table.equals(expected)
    today = through.intraday(coarse["id"], "Aug 25")
    assert today.equals(client.intraday(coarse["id"], "Aug 25"))
