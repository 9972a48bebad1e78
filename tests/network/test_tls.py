"""Extra CA certificates: a server whose certificate chains to a CA the
system does not trust fails with a clear certificate error pointing to
``ca_bundle``; with ``ca_bundle=`` or ``SSL_CERT_FILE`` naming that CA, REST
calls, bulk downloads and the live feed (``wss://``) work."""

from __future__ import annotations

from pathlib import Path

import pytest
from network_helpers import FULL, first_tick, https_urls
from network_servers import RecordingProxy, TlsForwarder

import marketcurves as mc
from marketcurves.testing import Emulator


def assert_certificate_error(error: BaseException, forwarder: TlsForwarder) -> None:
    message = str(error)
    assert "TLS certificate problem" in message, message
    assert f"127.0.0.1:{forwarder.port}" in message, message
    assert "ca_bundle=" in message and "SSL_CERT_FILE" in message, message


def test_without_the_ca_rest_calls_fail_with_a_certificate_error(em: Emulator, tls: TlsForwarder):
    client = em.client(token=em.token(), **https_urls(tls))
    with pytest.raises(mc.ServiceError) as raised:
        client.catalogue()
    assert_certificate_error(raised.value, tls)
    assert "after 1 attempts" in str(raised.value), "a certificate problem is not retried"


def test_without_the_ca_the_live_feed_stops_with_a_certificate_error(
    em: Emulator, tls: TlsForwarder, live_curve
):
    # REST over plain http, the feed over wss://.
    client = em.client(token=em.token(), live_url=https_urls(tls)["live_url"])
    with client.live() as feed:
        with pytest.raises(mc.LiveFeedError) as raised:
            feed.next(timeout=10)
        assert_certificate_error(raised.value, tls)
        assert feed.closed
        with pytest.raises(mc.LiveFeedError) as later:
            feed.subscribe(*live_curve)
        assert_certificate_error(later.value, tls)


def test_with_ca_bundle_rest_bulk_and_live_work(
    em: Emulator, tls: TlsForwarder, ca_file: Path, live_curve, tmp_path
):
    client = em.client(**FULL, **https_urls(tls), ca_bundle=ca_file)
    assert len(client.catalogue(vertical="Jet")) > 0
    assert (first_tick(client, live_curve).curve_id, client.live_url) == (
        live_curve[0],
        https_urls(tls)["live_url"],
    )
    result = client.bulk_download(
        "JET", "2025-01", "2025-02", tmp_path, progress=False, poll_interval=0.05
    )
    assert len(result.files) == 2 and result.rows > 0
    # The pre-signed URLs are http://; the forwarder sent each to https://.
    assert len([p for p in tls.redirected if p.startswith("/files/")]) == 2
    assert tls.handshakes >= 2 and tls.failed_handshakes == 0


def test_ssl_cert_file_is_trusted_too(
    em: Emulator, tls: TlsForwarder, ca_file: Path, live_curve, monkeypatch
):
    monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
    client = em.client(token=em.token(), **https_urls(tls))
    assert len(client.catalogue(vertical="Jet")) > 0
    first_tick(client, live_curve)


def test_https_and_wss_through_a_proxy_tunnel(
    em: Emulator,
    tls: TlsForwarder,
    proxy: RecordingProxy,
    ca_file: Path,
    live_curve,
    monkeypatch,
):
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    client = em.client(token=em.token(), **https_urls(tls), ca_bundle=str(ca_file))
    client.catalogue(vertical="Jet")
    first_tick(client, live_curve)
    assert set(proxy.targets("CONNECT")) == {f"127.0.0.1:{tls.port}"}
    assert len(proxy.targets("CONNECT")) >= 2, "one tunnel for REST, one for the feed"
    assert proxy.targets("GET") == []


def test_the_bundle_adds_to_the_system_roots(em: Emulator, ca_file: Path):
    # Plain http needs no certificate; a bundle of one CA still leaves the
    # system's roots in place (the client builds, the other CAs stay trusted).
    client = em.client(ca_bundle=ca_file)
    assert len(client.catalogue(vertical="Jet")) > 0


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read it"),
        (b"", "no certificate in it"),
        (b"not a certificate\n", "no certificate in it"),
        (b"-----BEGIN CERTIFICATE-----\n%%%\n-----END CERTIFICATE-----\n", "not a valid PEM"),
        (
            b"-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n",
            "certificate 1 of 1 is not a valid CA certificate",
        ),
    ],
)
def test_a_bad_bundle_is_refused_in_the_constructor(
    em: Emulator, tmp_path: Path, content: bytes | None, expected: str
):
    path = tmp_path / "bundle.pem"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(mc.InvalidRequest) as raised:
        em.client(ca_bundle=path)
    message = str(raised.value)
    assert message.startswith(f"ca_bundle ({path})") and expected in message, message


@pytest.mark.parametrize("value", [123, "", b"/tmp/ca.pem"])
def test_ca_bundle_must_be_a_path(em: Emulator, value):
    with pytest.raises(mc.InvalidRequest, match="ca_bundle must be the path of a file"):
        em.client(ca_bundle=value)


def test_a_bad_ssl_cert_file_is_named(em: Emulator, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    with pytest.raises(mc.InvalidRequest, match=r"^SSL_CERT_FILE \(.*missing\.pem\): cannot read"):
        em.client()
