"""The emulator's control API as Python sees it: one name per control from
the Rust core to ``marketcurves.testing.Emulator``, the core's value checks
raised as ``InvalidRequest``, and results with named fields."""

from __future__ import annotations

import datetime as dt
import inspect
import math
from email.utils import parsedate_to_datetime

import pytest

import marketcurves as mc
from marketcurves import _core
from marketcurves.testing import Emulator, PublishedValue

UTC = dt.UTC
JULY = "Jul 25"


#: What serves the emulator's clients rather than controls its server:
#: `client` builds a marketcurves.Client, `keepalive` gives a feed's settings.
CLIENT_SIDE = {"client", "keepalive"}


def public_names(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def test_every_control_has_the_same_name_in_the_core():
    missing = public_names(Emulator) - CLIENT_SIDE - public_names(_core.EmulatorServer)
    assert not missing, f"controls without a core method of the same name: {sorted(missing)}"


def test_controls_take_the_same_arguments_as_the_core():
    # The constructor's `start` also takes ISO strings, which Python converts.
    for name in public_names(Emulator) - CLIENT_SIDE:
        ours = inspect.getattr_static(Emulator, name)
        if isinstance(ours, property):
            continue
        core = getattr(_core.EmulatorServer, name)
        ours_names = list(inspect.signature(ours).parameters)[1:]
        core_names = list(inspect.signature(core).parameters)[1:]
        assert ours_names == core_names, name


@pytest.mark.parametrize(
    ("control", "message"),
    [
        (lambda e: e.fail_next(0), "count must be at least 1"),
        (lambda e: e.fail_next(1, 700), "status must be an HTTP status from 100 to 599, not 700"),
        (lambda e: e.reset_next(0), "count must be at least 1"),
        (lambda e: e.corrupt_next(0), "count must be at least 1"),
        (lambda e: e.fail_next_job(0), "count must be at least 1"),
        (lambda e: e.truncate_next_download(0), "count must be at least 1"),
        (lambda e: e.fail_next_auth(0), "count must be at least 1"),
        (lambda e: e.fail_next_live_command(0), "count must be at least 1"),
        (lambda e: e.set_latency(-1), "latency must be a number of seconds >= 0, not -1"),
        (lambda e: e.advance(math.nan), "seconds must be a finite number"),
        (lambda e: e.revoke_licence("nobody@example.com"), 'no account "nobody@example.com"'),
        (lambda e: e.restore_licence("nobody@example.com"), "no account"),
        (lambda e: e.revoke_live("nobody@example.com"), "no account"),
        (lambda e: e.bulk_rows("Coal", "2025-05"), 'unknown vertical "Coal"'),
        (lambda e: e.bulk_rows("Jet", "May"), 'month must be YYYY-MM, not "May"'),
        (lambda e: e.add_curves("Coal", 1), 'unknown vertical "Coal"'),
        (lambda e: e.add_curves("Jet", 0), "count must be at least 1"),
        (lambda e: e.published("no-such-curve", JULY), 'unknown curve id "no-such-curve"'),
        (lambda e: e.set_time("yesterday"), "when must be an ISO 8601 date-time"),
    ],
)
def test_bad_values_raise_invalid_request_with_the_cores_message(shared_emulator, control, message):
    with pytest.raises(mc.InvalidRequest) as raised:
        control(shared_emulator)
    assert message in str(raised.value)


def test_a_time_scale_is_checked_at_construction_and_when_set(shared_emulator):
    with pytest.raises(mc.InvalidRequest, match="time_scale must be a finite number >= 0"):
        Emulator(time_scale=-1)
    with pytest.raises(mc.InvalidRequest, match="time_scale"):
        shared_emulator.time_scale = math.inf
    assert shared_emulator.time_scale == 0


def test_published_values_have_named_fields_and_are_tuples(shared_emulator, fob_curve):
    values = shared_emulator.published(fob_curve["id"], JULY, "2025-06-12T00:00:00Z")
    assert values and all(isinstance(v, PublishedValue) for v in values)
    first = values[0]
    assert first == (first.generated_on, first.price)
    assert first.generated_on.tzinfo is not None
    assert first.generated_on >= dt.datetime(2025, 6, 12, tzinfo=UTC)
    assert isinstance(first.price, float)


def test_credentials_are_a_plain_dict_of_the_demo_login(shared_emulator):
    credentials = shared_emulator.credentials
    assert credentials == {"email": "demo@marketcurves.test", "password": "demo-password"}
    credentials["password"] = "changed"
    assert shared_emulator.credentials["password"] == "demo-password"


def test_request_count_counts_what_reaches_the_service_by_prefix(emulator, fob_curve):
    settlements = "/historical/settlements"
    tenors = fob_curve["contracts"][:2]
    assert emulator.request_count() == 0
    with emulator.client() as client:
        client.catalogue()
        total = emulator.request_count()
        assert emulator.request_count("/authenticate") == 1
        assert emulator.request_count("/catalogue") >= 1
        assert emulator.request_count(settlements) == 0
        client.settlements(fob_curve["id"], "2025-06-09", "2025-06-13", tenors)
        assert emulator.request_count(settlements) == 2
        assert emulator.request_count("/v2" + settlements) == 2
        assert emulator.request_count() - total >= 2
        # A request failed by a fault is counted, and so is its retry.
        emulator.fail_next(1, 503, path=settlements, retry_after=0)
        client.settlements(fob_curve["id"], "2025-06-09", "2025-06-13", tenors[0])
    assert emulator.request_count(settlements) == 4
    assert emulator.request_count(f"{settlements}/{fob_curve['id']}") == 4
    assert emulator.request_count("/ongoing") == 0


def test_every_response_is_dated_by_the_emulators_clock(emulator, own_api):
    def date(response) -> dt.datetime:
        return parsedate_to_datetime(response.headers["Date"])

    now = emulator.now()
    assert date(own_api.get("/catalogue")) == now
    assert date(own_api.get("/nowhere")) == now
    emulator.fail_next(1, 503)
    assert date(own_api.get("/catalogue")) == now
    emulator.set_time("2019-03-01T12:34:56.7Z")
    failed = own_api.get("/catalogue", headers={})
    assert failed.status_code == 401
    assert failed.headers["Date"] == "Fri, 01 Mar 2019 12:34:56 GMT"
