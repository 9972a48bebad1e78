"""Fixtures for the network suite: proxies from the environment, extra CA
certificates, and certificate failures, end to end through the public API.

A :class:`~network_servers.RecordingProxy` on loopback shows what went
through it; a :class:`~network_servers.TlsForwarder` with a certificate of a
CA made by ``trustme`` puts ``https://`` and ``wss://`` in front of the
emulator's plain port. Every server is closed (its threads joined) when its
test ends.
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from network_helpers import port_of
from network_servers import RecordingProxy, TlsForwarder
from support import start_emulator

from marketcurves.testing import Emulator


@pytest.fixture(autouse=True)
def _no_threads_left_behind() -> Iterator[None]:
    """Set up first, so checked last: after every server of the test closed.
    (The runtime's own threads show up as dummies once they log: not ours.)"""
    before = set(threading.enumerate())
    yield
    left = [
        t.name
        for t in threading.enumerate()
        if t not in before and not isinstance(t, threading._DummyThread)
    ]
    assert not left, f"threads left running: {left}"


@pytest.fixture
def em(make_emulator: Callable[..., Emulator]) -> Emulator:
    # A fast clock: bulk jobs finish at once; live values keep coming.
    return make_emulator(time_scale=500)


@pytest.fixture(scope="module")
def live_curve() -> tuple[str, str]:
    """A curve of the demo account's live licence and one of its tenors."""
    with start_emulator() as emulator:
        curve = emulator.client().catalogue(vertical="Jet", quotation="Fob")[0]
        return curve.id, curve.contracts[0]


@pytest.fixture
def make_proxy() -> Iterator[Callable[..., RecordingProxy]]:
    """Starts recording proxies (arguments as ``RecordingProxy``), closed at the end."""
    proxies: list[RecordingProxy] = []

    def make(**kwargs: Any) -> RecordingProxy:
        proxies.append(RecordingProxy(**kwargs))
        return proxies[-1]

    yield make
    for proxy in proxies:
        proxy.close()


@pytest.fixture
def proxy(make_proxy: Callable[..., RecordingProxy]) -> RecordingProxy:
    return make_proxy()


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> Path:
    """The CA's certificate as a PEM file."""
    path = tmp_path / "corporate-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


@pytest.fixture
def tls(ca: trustme.CA, em: Emulator) -> Iterator[TlsForwarder]:
    """``https://127.0.0.1:<port>`` in front of the emulator, with a
    certificate of the test CA for 127.0.0.1."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    forwarder = TlsForwarder(context, port_of(em.base_url))
    yield forwarder
    forwarder.close()
