"""Helpers of the network suite."""

from __future__ import annotations

from network_servers import TlsForwarder

import marketcurves as mc

#: An account licensed for every quotation, bulk download included.
FULL = {"email": "full@marketcurves.test", "password": "full-password"}


def port_of(url: str) -> int:
    return int(url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])


def https_urls(forwarder: TlsForwarder) -> dict[str, str]:
    return {
        "base_url": f"https://127.0.0.1:{forwarder.port}/v2",
        "live_url": f"wss://127.0.0.1:{forwarder.port}",
    }


def first_tick(client: mc.Client, curve: tuple[str, str]) -> mc.Tick:
    """Subscribes to one tenor and returns the first tick (its snapshot).
    Not strict: these tests are about the live connection's route, and a
    strict subscription's catalogue request would race it through the proxy."""
    with client.live(backfill=False) as feed:
        feed.subscribe(*curve, strict=False)
        tick = feed.next(timeout=10)
    assert tick is not None, "no tick within 10 s"
    return tick
