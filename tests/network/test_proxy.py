"""Proxies from the environment: REST calls, bulk downloads and the live
feed go through the proxy the environment names, bypass it as ``NO_PROXY``
says, send its credentials, and report its refusals naming it (never its
password)."""

from __future__ import annotations

import logging

import pytest
from network_helpers import FULL, first_tick, port_of
from network_servers import RecordingProxy

import marketcurves as mc
from marketcurves.testing import Emulator


def test_rest_calls_go_through_http_proxy(em: Emulator, proxy: RecordingProxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    client = em.client()
    assert len(client.catalogue(vertical="Jet")) > 0
    forwarded = proxy.targets("GET")
    assert forwarded and all(t.startswith(f"{em.base_url}/catalogue?") for t in forwarded)
    assert proxy.targets("POST") == [f"{em.base_url}/authenticate"]


def test_a_bulk_download_goes_through_the_proxy_pre_signed_urls_too(
    em: Emulator, proxy: RecordingProxy, monkeypatch, tmp_path
):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    result = em.client(**FULL).bulk_download(
        "JET", "2025-01", "2025-02", tmp_path, progress=False, poll_interval=0.05
    )
    assert len(result.files) == 2 and result.rows > 0
    files = [t for t in proxy.targets("GET") if "/files/" in t]
    assert len(files) == 2
    assert all(t.startswith(em.base_url.removesuffix("/v2") + "/files/") for t in files)
    assert any("/bulk-download/job-submit" in t for t in proxy.targets("POST"))


def test_the_live_feed_tunnels_through_the_proxy(
    em: Emulator, proxy: RecordingProxy, live_curve, monkeypatch
):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    tick = first_tick(em.client(), live_curve)
    assert (tick.curve_id, tick.tenor) == live_curve
    assert proxy.targets("CONNECT") == [f"127.0.0.1:{port_of(em.live_url)}"]


@pytest.mark.parametrize("variable", ["http_proxy", "ALL_PROXY", "all_proxy"])
def test_lowercase_and_all_proxy_are_honoured(
    em: Emulator, proxy: RecordingProxy, live_curve, monkeypatch, variable
):
    monkeypatch.setenv(variable, proxy.url)
    client = em.client()
    client.catalogue(vertical="Jet")
    first_tick(client, live_curve)
    assert proxy.targets("GET") and proxy.targets("CONNECT")


def test_https_proxy_is_not_used_for_http_destinations(
    em: Emulator, proxy: RecordingProxy, live_curve, monkeypatch
):
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    client = em.client()
    client.catalogue(vertical="Jet")
    first_tick(client, live_curve)
    assert proxy.carried == []


def test_no_proxy_bypasses_the_proxy_everywhere(
    em: Emulator, proxy: RecordingProxy, live_curve, monkeypatch, tmp_path
):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "example.com, 127.0.0.1")
    client = em.client(**FULL)
    client.catalogue(vertical="Jet")
    first_tick(client, live_curve)
    client.bulk_download("JET", "2025-01", "2025-01", tmp_path, progress=False, poll_interval=0.05)
    assert proxy.carried == []


@pytest.mark.parametrize(
    ("no_proxy", "bypassed"),
    [
        ("*", True),
        ("127.0.0.0/8", True),
        ("127.0.0.1:{port}", True),
        ("[::1],127.0.0.1:1", False),
        ("localhost", False),  # names are not resolved
        (".0.0.1", False),  # addresses are not domains
    ],
)
def test_no_proxy_forms(
    em: Emulator, proxy: RecordingProxy, monkeypatch, no_proxy: str, bypassed: bool
):
    monkeypatch.setenv("http_proxy", proxy.url)
    monkeypatch.setenv("no_proxy", no_proxy.format(port=port_of(em.base_url)))
    em.client(token=em.token()).catalogue(vertical="Jet")
    assert (proxy.carried == []) is bypassed


def test_a_proxy_asking_for_credentials_gets_those_of_its_url(
    em: Emulator, make_proxy, live_curve, monkeypatch
):
    proxy = make_proxy(user="quant", password="s3cr:t@pw")
    monkeypatch.setenv("HTTP_PROXY", f"http://quant:s3cr%3At%40pw@127.0.0.1:{proxy.port}")
    client = em.client()
    client.catalogue(vertical="Jet")
    first_tick(client, live_curve)
    assert proxy.targets("CONNECT") and proxy.targets("GET")
    assert {c.credentials for c in proxy.carried} == {proxy.expected}


@pytest.mark.parametrize("userinfo", ["", "quant:wrong-pw-123@"])
def test_refused_credentials_are_reported_naming_the_proxy_not_the_password(
    em: Emulator, make_proxy, live_curve, monkeypatch, caplog, userinfo
):
    proxy = make_proxy(user="quant", password="right")
    monkeypatch.setenv("HTTP_PROXY", f"http://{userinfo}127.0.0.1:{proxy.port}")
    client = em.client(token=em.token())
    with pytest.raises(mc.ServiceError) as rest:
        client.catalogue(vertical="Jet")
    with client.live() as feed, pytest.raises(mc.LiveFeedError) as live:
        feed.next(timeout=10)
    for error in (rest.value, live.value):
        message = str(error)
        assert proxy.url in message and "407" in message, message
        assert "wrong-pw-123" not in message
    assert "HTTP_PROXY" in str(live.value)
    assert "wrong-pw-123" not in caplog.text + repr(client)
    assert len(proxy.targets()) == 2, "a refusal of the credentials is not retried"


def test_a_proxy_that_refuses_the_tunnel_is_named(em: Emulator, make_proxy, monkeypatch):
    proxy = make_proxy(refuse=403)
    monkeypatch.setenv("HTTPS_PROXY", f"http://user:pw-456@127.0.0.1:{proxy.port}")
    # Never reached: the proxy refuses first.
    client = mc.Client("https://service.invalid/v2", token="t", max_retries=0)
    with pytest.raises(mc.ServiceError) as rest:
        client.catalogue()
    refused = (
        f"the proxy {proxy.url} (from HTTPS_PROXY) refused the connection to service.invalid:443"
    )
    assert refused in str(rest.value) and "pw-456" not in str(rest.value)
    assert proxy.targets() == ["service.invalid:443"]

    live_client = mc.Client(em.base_url, live_url="wss://live.invalid", token=em.token())
    with live_client.live() as feed, pytest.raises(mc.LiveFeedError) as live:
        feed.next(timeout=10)
    message = str(live.value)
    assert f"the proxy {proxy.url} refused the connection to live.invalid:443" in message
    assert "403" in message and "pw-456" not in message


def test_a_gateway_error_from_the_proxy_is_retried_and_logged(
    em: Emulator, make_proxy, live_curve, monkeypatch, caplog
):
    proxy = make_proxy(refuse_first=1)
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    client = em.client(token=em.token())
    with caplog.at_level(logging.WARNING, logger="marketcurves"):
        first_tick(client, live_curve)
    assert len(proxy.targets("CONNECT")) == 2
    failures = [
        r.getMessage() for r in caplog.records if "connection attempt failed" in r.getMessage()
    ]
    assert failures and proxy.url in failures[0] and "502" in failures[0], failures


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("socks5://127.0.0.1:1080", "socks5:// proxies are not supported"),
        ("https://u:pw-789@127.0.0.1:3128", "a proxy reached over TLS is not supported"),
        ("http://", "HTTPS_PROXY must be a proxy URL"),
    ],
)
def test_a_proxy_variable_that_cannot_work_is_refused_at_once(
    em: Emulator, monkeypatch, value: str, expected: str
):
    monkeypatch.setenv("HTTPS_PROXY", value)
    with pytest.raises(mc.InvalidRequest, match="HTTPS_PROXY") as raised:
        em.client()
    assert expected in str(raised.value) and "pw-789" not in str(raised.value)
