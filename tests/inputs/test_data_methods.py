"""The catalogue and price methods and their ``_async`` twins: each bad
argument raises InvalidRequest naming it, and no request is tried (the
``unsent`` client's token provider is never called)."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from typing import Any

import pytest
from inputs_helpers import ID, assert_invalid

import marketcurves as mc

RANGE = ("2025-05-01", "2025-05-31")
UTC = dt.UTC

# (method, args, kwargs, the argument named)
CASES: list[tuple[str, tuple[Any, ...], dict[str, Any], str]] = [
    # catalogue: filter names and values
    ("catalogue", (), {"vertical": "Coal"}, "vertical"),
    ("catalogue", (), {"vertical": "   "}, "vertical"),
    ("catalogue", (), {"quotation": "Fob", "vertical": "Fuel Oil"}, "quotation"),
    ("catalogue", (), {"region": "AG", "vertical": "Fuel Oil"}, "region"),
    ("catalogue", (), {"region": ""}, "region"),
    ("catalogue", (), {"": "x"}, "filter"),
    ("catalogue", (), {" ": "x"}, "filter"),
    ("catalogue", (), {"grade\n": "x"}, "filter"),
    ("catalogue", (), {"grade": "   "}, "grade"),
    ("catalogue", (), {"grade": b"A"}, "grade"),
    # current day
    ("last_settlement", ("",), {}, "curve_id"),
    # a path segment of dots names another path, encoded or not
    ("last_settlement", ("..",), {}, "curve_id"),
    ("settlements", (".", *RANGE), {}, "curve_id"),
    ("intraday", (ID, ".."), {}, "tenor"),
    ("last_settlement", (ID, ""), {}, "tenor"),
    ("last_settlement", (ID, "Jan 25\n"), {}, "tenor"),
    ("last_assessments", (b"id",), {}, "curve_id"),
    ("last_assessments", (ID, 7), {}, "tenor"),
    ("intraday", (ID, "13-17 Jan 25"), {}, "tenor"),
    ("intraday", (ID, "Jul 25"), {"progress": "yes"}, "progress"),
    ("intraday", (ID, "Jul 25"), {"progress": 1}, "progress"),
    # history: dates, ranges, tenors, progress
    ("settlements", (ID, "2025-05-01T25:00", RANGE[1]), {}, "start"),
    ("settlements", (ID, RANGE[0], dt.time(12)), {}, "end"),
    ("settlements", (ID, "31/05/2025", RANGE[1]), {}, "start"),
    ("settlements", (ID, RANGE[0], "2025-05"), {}, "end"),
    ("settlements", (ID, dt.datetime(2025, 6, 1, 1, tzinfo=UTC), "2025-05-31"), {}, "start"),
    ("settlements", (ID, *RANGE, {"Jul 25": 1, "": 2}), {}, "tenor"),
    ("settlements", (ID, *RANGE), {"progress": None}, "progress"),
    ("intraday_history", (ID, "2025-06-01", "2025-05-01"), {}, "start"),
    ("intraday_history", (ID, RANGE[0], ""), {}, "end"),
    ("intraday_history", (ID, *RANGE, 3.5), {}, "tenors"),
    ("intraday_history", (ID, *RANGE, iter([])), {}, "tenors"),
    ("intraday_history", (ID, *RANGE), {"progress": "no"}, "progress"),
]

AWAITABLE_CASES = [case for case in CASES if "progress" not in case[2]]


def case_id(value: Any) -> str:
    """A case's repr without object addresses, so that every process names it alike."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


@pytest.mark.parametrize(("method", "args", "kwargs", "name"), CASES, ids=case_id)
def test_blocking_methods(unsent, method, args, kwargs, name):
    assert_invalid(lambda: getattr(unsent, method)(*args, **kwargs), name)


@pytest.mark.parametrize(("method", "args", "kwargs", "name"), AWAITABLE_CASES, ids=case_id)
def test_awaitable_methods(unsent, method, args, kwargs, name):
    call = getattr(unsent, f"{method}_async")
    assert_invalid(lambda: asyncio.run(call(*args, **kwargs)), name)


@pytest.mark.parametrize(("method", "args", "kwargs", "name"), AWAITABLE_CASES, ids=case_id)
def test_a_closed_client_names_the_bad_argument_too(unsent, method, args, kwargs, name):
    """The values are checked before the client is looked at: bad input is an
    InvalidRequest on a closed client too, not ClientClosed."""
    unsent.close()
    assert_invalid(lambda: getattr(unsent, method)(*args, **kwargs), name)
    call = getattr(unsent, f"{method}_async")
    assert_invalid(lambda: asyncio.run(call(*args, **kwargs)), name)


def test_the_awaitable_twins_take_no_progress_argument(unsent):
    with pytest.raises(TypeError, match="progress"):
        asyncio.run(unsent.intraday_async(ID, "Jul 25", progress=True))  # type: ignore[call-arg]


def test_a_good_call_does_try_to_send(provider, unsent):
    """The proof the suite relies on: a well-formed call asks the provider for a
    token before it sends, and the closed port then fails it."""
    with pytest.raises(mc.ServiceError):
        unsent.last_settlement(ID, "Jul 25")
    assert provider.calls == 1
    provider.calls = 0  # the fixture's check is for the bad calls of other tests
