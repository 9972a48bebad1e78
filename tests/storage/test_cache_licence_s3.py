"""The licence rule of a cache that accounts share (moto's S3 on loopback):
a curve the service refuses to an account is never served to it from rows
another account filled; a curve costs one confirming request per session,
remembered on the machine for ``MARKETCURVES_LICENCE_TTL`` seconds; a
licence withdrawn is honoured once that time is over; offline serves only
curves the account was confirmed for.

The emulator's demo account is refused the ``Sales`` curves, its ``full``
account licensed for everything. Each test's machine memory is a folder of
its own (``XDG_CACHE_HOME``, set by the suite's conftest)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "cache"))
from cache_helpers import SUMMER, Requests, assert_same_table, count_requests, pick_curves

import marketcurves as mc

DAYS = ("2025-04-01", "2025-05-30")
LATER = ("2025-05-01", "2025-06-12")
FULL = "full@marketcurves.test"
#: The confirming request: the curve's last settlements.
CONFIRM = "/ongoing/last-settlement"
TTL = "MARKETCURVES_LICENCE_TTL"


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A stopped clock: what is final stays final through the module."""
    return {}


@pytest.fixture(scope="module")
def curves(em) -> tuple[str, str]:
    """A curve both accounts may read, and a ``Sales`` curve only ``full`` may."""
    with em.client(token=em.token(FULL)) as client:
        sales = next(
            c.id
            for c in client.catalogue()
            if c.quotation == "Sales" and set(SUMMER) <= set(c.contracts)
        )
        return pick_curves(client).coarse, sales


def _client(emulator: Any, url: str, options: dict, account: str | None = None, **kw: Any):
    token = {"token": emulator.token(account)} if account else {}
    return emulator.client(cache_dir=url, storage_options=options, **token, **kw)


@pytest.fixture
def url(bucket: str) -> str:
    return f"s3://{bucket}/desk/history"


def _confirmations(emulator: Any, call) -> tuple[Any, int]:
    before = emulator.request_count(CONFIRM)
    result = call()
    return result, emulator.request_count(CONFIRM) - before


def test_an_account_refused_a_curve_is_not_served_what_another_filled(em, curves, url, s3_options):
    _, sales = curves
    with _client(em, url, s3_options, FULL) as full:
        filled = full.settlements(sales, *DAYS, SUMMER)
        assert filled.num_rows > 0
    with _client(em, url, s3_options) as demo:
        for _ in range(2):
            # Asked (a refusal is asked again online), refused before any
            # cached row was read, and nothing fetched.
            before = em.request_count(CONFIRM)
            with Requests(em) as sent, pytest.raises(mc.AccessDenied):
                demo.settlements(sales, *DAYS, SUMMER)
            # Twice: every 403 is sent once more with a renewed token.
            assert em.request_count(CONFIRM) - before == 2
            assert sent.settlements == 0, sent
        # The refusal is remembered: offline refuses too, with no request.
        with pytest.raises(mc.AccessDenied):
            demo.settlements(sales, *DAYS, SUMMER, cache="offline")
    with _client(em, url, s3_options, FULL) as full:
        got, sent = count_requests(em, lambda: full.settlements(sales, *DAYS, SUMMER))
    assert (sent.settlements, sent.total) == (0, 0), "full's answer is remembered"
    assert_same_table(got, filled)


def test_a_curve_costs_one_confirmation_per_session_remembered_on_the_machine(
    em, curves, url, s3_options, monkeypatch, tmp_path
):
    fob, sales = curves
    with _client(em, url, s3_options, FULL) as filler:
        for curve in (fob, sales):
            filler.settlements(curve, *DAYS, SUMMER)
            filler.settlements(curve, *LATER, SUMMER)
    # Another machine (a memory of its own) of the demo account.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-machine"))
    with _client(em, url, s3_options) as demo:
        _, asked = _confirmations(em, lambda: demo.settlements(fob, *DAYS, SUMMER))
        assert asked == 1
        _, sent = count_requests(em, lambda: demo.settlements(fob, *LATER, SUMMER))
        assert (sent.total, sent.settlements) == (0, 0), "confirmed once for the session"
    with _client(em, url, s3_options) as next_session:
        _, asked = _confirmations(em, lambda: next_session.settlements(fob, *DAYS, SUMMER))
        assert asked == 0, "remembered on the machine"
    monkeypatch.setenv(TTL, "0")
    with _client(em, url, s3_options, FULL) as full:
        for curve in (fob, sales):
            _, asked = _confirmations(em, lambda c=curve: full.settlements(c, *DAYS, SUMMER))
            assert asked == 1, "nothing remembered with a time of 0: asked each call"


def test_a_withdrawn_licence_is_honoured_once_the_remembered_time_is_over(
    fresh_em, url, s3_options, monkeypatch
):
    em = fresh_em
    with em.client(token=em.token(FULL)) as plain:
        fob = pick_curves(plain).coarse
        (quotation,) = {c.quotation for c in plain.catalogue() if c.id == fob}
    with _client(em, url, s3_options, FULL) as full:
        filled = full.settlements(fob, *DAYS, SUMMER)
    em.revoke_licence(FULL, quotation=quotation)
    # Within the remembered time, the machine's answer stands.
    with _client(em, url, s3_options, FULL) as full:
        got, sent = count_requests(em, lambda: full.settlements(fob, *DAYS, SUMMER))
    assert sent.total == 0
    assert_same_table(got, filled)
    # Once it is over, the service is asked again, and refuses.
    monkeypatch.setenv(TTL, "0")
    with _client(em, url, s3_options, FULL) as full:
        with pytest.raises(mc.AccessDenied):
            full.settlements(fob, *DAYS, SUMMER)
    # The refusal is remembered: offline, within the time, refuses too.
    monkeypatch.delenv(TTL)
    with _client(em, url, s3_options, FULL) as full:
        with pytest.raises(mc.AccessDenied):
            full.settlements(fob, *DAYS, SUMMER, cache="offline")
        # Restored, and asked again online: served.
        em.restore_licence(FULL)
        assert_same_table(full.settlements(fob, *DAYS, SUMMER), filled)


def test_offline_serves_only_curves_this_account_was_confirmed_for(em, curves, url, s3_options):
    fob, _ = curves
    with _client(em, url, s3_options) as demo:
        filled = demo.settlements(fob, *DAYS, SUMMER)
    with _client(em, url, s3_options, FULL) as full:
        full.catalogue()
        # Never confirmed on this machine: a miss (the service has not
        # said no), naming every day asked of every tenor.
        with pytest.raises(mc.CacheMiss) as miss:
            full.settlements(fob, *DAYS, SUMMER, cache="offline")
        assert "not confirmed" in str(miss.value)
        assert miss.value.curve_id == fob
        assert sorted(miss.value.missing) == sorted(SUMMER)
        full.settlements(fob, *DAYS, SUMMER)
    with _client(em, url, s3_options, FULL, cache="offline") as offline:
        got, sent = count_requests(em, lambda: offline.settlements(fob, *DAYS, SUMMER))
    assert sent.total == 0
    assert_same_table(got, filled)


def test_the_budget_counts_the_confirmation_a_shared_cache_needs(
    em, curves, url, s3_options, monkeypatch, tmp_path
):
    # Every day cached by another account: what a call of this account still
    # sends is the confirmation of its licence, once, and the budget says so.
    fob, _ = curves
    with _client(em, url, s3_options, FULL) as filler:
        filler.settlements(fob, *DAYS, SUMMER)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-machine-of-its-own"))
    with _client(em, url, s3_options) as demo:
        demo.catalogue()  # kept: the catalogue costs the calls below nothing
        with pytest.raises(mc.BudgetExceeded) as caught:
            demo.settlements(fob, *DAYS, SUMMER, max_requests=0)
        assert (caught.value.needed, caught.value.allowed) == (1, 0)
        table, sent = count_requests(
            em, lambda: demo.settlements(fob, *DAYS, SUMMER, max_requests=1)
        )
        assert table.num_rows > 0 and sent.total == 1, sent
        _, sent = count_requests(em, lambda: demo.settlements(fob, *DAYS, SUMMER, max_requests=0))
        assert sent.total == 0, "confirmed for the session: nothing more to send"
