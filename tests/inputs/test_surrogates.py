"""A lone surrogate (what a file name that is not UTF-8 decodes to) in any
string argument is an InvalidRequest naming the argument, raised before
anything is sent, not a bare UnicodeEncodeError from the core's boundary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from inputs_helpers import CLOSED_URL, ID, assert_invalid

import marketcurves as mc

BAD = "a\udc80b"
RANGE = ("2025-05-01", "2025-05-31")

#: (what is called, given the unsent client and a folder; the argument named)
CALLS: list[tuple[str, Callable[[mc.Client, Any], Any], str]] = [
    ("catalogue vertical", lambda c, _: c.catalogue(vertical=BAD), "vertical"),
    ("catalogue filter", lambda c, _: c.catalogue(grade=BAD), "grade"),
    ("last_settlement", lambda c, _: c.last_settlement(BAD), "curve_id"),
    ("last_assessments", lambda c, _: c.last_assessments(ID, BAD), "tenor"),
    ("intraday", lambda c, _: c.intraday(ID, BAD), "tenor"),
    ("settlements start", lambda c, _: c.settlements(ID, BAD, RANGE[1]), "start"),
    ("settlements tenors", lambda c, _: c.settlements(ID, *RANGE, tenors=[BAD]), "tenors"),
    ("intraday_history", lambda c, _: c.intraday_history(BAD, *RANGE), "curve_id"),
    ("bulk_submit vertical", lambda c, _: c.bulk_submit(BAD, "2024-01", "2024-02"), "vertical"),
    ("bulk_submit month", lambda c, _: c.bulk_submit("JET", BAD, "2024-02"), "start"),
    (
        "bulk_download dest",
        lambda c, d: c.bulk_download("JET", "2024-01", "2024-01", d / BAD),
        "dest",
    ),
    ("read_bulk", lambda c, d: mc.read_bulk(d / BAD), "dest"),
    ("read_ticks curve", lambda c, d: mc.read_ticks(d, curve_id=BAD), "curve_id"),
    ("record dest", lambda c, d: c.record(d / BAD, [(ID, "*")]), "dest"),
    ("record tenor", lambda c, d: c.record(d, [(ID, BAD)]), "tenor"),
    ("clear_cache", lambda c, _: c.clear_cache(curve_id=BAD), "curve_id"),
    ("Tenor.parse", lambda c, _: mc.Tenor.parse(BAD), "name"),
]


@pytest.mark.parametrize(("_", "call", "name"), CALLS, ids=[c[0] for c in CALLS])
def test_each_string_argument_is_checked(unsent, tmp_path, _, call, name):
    assert_invalid(lambda: call(unsent, tmp_path), name)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"token": BAD}, "token"),
        ({"token": None, "email": BAD, "password": "p"}, "email"),
        ({"token": None, "email": "a@b.c", "password": BAD}, "password"),
        ({"token": "t", "base_url": f"http://127.0.0.1:9/{BAD}"}, "base_url"),
    ],
    ids=["token", "email", "password", "base_url"],
)
def test_the_client_s_settings_are_checked(no_env, kwargs, name):
    arguments = {"base_url": CLOSED_URL, **kwargs}
    error = assert_invalid(lambda: mc.Client(**arguments), name)
    # Only the character at fault is shown, never the value (a secret, maybe).
    assert BAD not in str(error)
