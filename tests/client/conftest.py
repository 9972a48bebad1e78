"""Fixtures for the suite of the REST client, ``marketcurves.Client``.

Every test runs the client end to end against the in-process emulator. The
expected answers come from the emulator itself, fetched with plain ``requests``
(the ``wire`` fixture) and decoded here independently of the package, or from
first principles (tenor periods, calendar order).

The emulators run on a stopped clock (``time_scale=0``) set on Friday
2025-06-13 at 17:00 UTC, after the London close, so that every answer is fixed.
Read-only tests share one emulator per module; tests that inject faults, move
the clock or change licences get one of their own (``fresh_em``).
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
import requests
from support import START

import marketcurves as mc
from marketcurves.testing import Emulator

TODAY = dt.date(2025, 6, 13)
UTC = dt.UTC
# Nothing listens on the discard port: any request sent there fails at once.
CLOSED_URL = "http://127.0.0.1:9/v2"

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_MONTH = "(" + "|".join(MONTHS) + ")"
_MONTHLY = re.compile(rf"^{_MONTH} (\d\d)$")
_QUARTERLY = re.compile(r"^Q([1-4]) (\d\d)$")
_WINDOW = re.compile(rf"^(1|6|11|16|21|26)-(5|10|15|20|25|EOM) {_MONTH} (\d\d)$")
_CONTINUOUS = re.compile(r"^C 0[0-2]$")
_GENERATED_ON = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$")
_SNAPSHOTS = {
    "singaporeSnapshot": "singapore",
    "londonSnapshot": "london",
    "newYorkSnapshot": "new_york",
}


def _month_end(first: dt.date) -> dt.date:
    following = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return following - dt.timedelta(days=1)


def tenor_facts(name: str) -> tuple[str, dt.date | None, dt.date | None]:
    """Kind, first and last day of a tenor name, read from the interface's shapes."""
    if _CONTINUOUS.match(name):
        return "continuous", None, None
    if m := _MONTHLY.match(name):
        first = dt.date(2000 + int(m[2]), MONTHS.index(m[1]) + 1, 1)
        return "month", first, _month_end(first)
    if m := _QUARTERLY.match(name):
        first = dt.date(2000 + int(m[2]), 3 * int(m[1]) - 2, 1)
        return "quarter", first, _month_end(dt.date(first.year, first.month + 2, 1))
    if m := _WINDOW.match(name):
        month = dt.date(2000 + int(m[4]), MONTHS.index(m[3]) + 1, 1)
        last = _month_end(month) if m[2] == "EOM" else month.replace(day=int(m[2]))
        return "window", month.replace(day=int(m[1])), last
    return "other", None, None


def parse_generated_on(text: str) -> dt.datetime:
    """A ``generatedOn`` (UTC, no suffix, 0 to 6 fractional digits) as an aware datetime."""
    m = _GENERATED_ON.match(text)
    assert m, f"generatedOn {text!r} does not have the interface's shape"
    micros = int((m[7] or "").ljust(6, "0"))
    parts = [int(p) for p in m.groups()[:6]]
    return dt.datetime(*parts, micros, tzinfo=UTC)  # type: ignore[misc]


def fraction_digits(text: str) -> int:
    m = _GENERATED_ON.match(text)
    assert m, text
    return len(m[7] or "")


def seg(text: str) -> str:
    return quote(text, safe="")


def expected_row(curve_id: str, record: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The table row a Price record of the wire stands for."""
    kind, start, end = tenor_facts(record["tenor"])
    row: dict[str, Any] = {
        "curve_id": curve_id,
        "tenor": record["tenor"],
        "tenor_kind": kind,
        "tenor_start": start,
        "tenor_end": end,
        **extra,
        "generated_on": parse_generated_on(record["generatedOn"]),
        "price": float(record["price"]),
        "units": record["units"],
        "dependencies": [
            {
                "id": d["id"],
                "name": d["name"],
                "value": float(d["value"]),
                "units": d["units"],
                "tenor_name": d["tenorName"],
            }
            for d in record["dependencies"]
        ],
        "metadata": [(e["name"], e["value"]) for e in record["metadata"]],
    }
    return row


def _row_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        row["curve_id"],
        row["tenor"],
        row.get("date") or dt.date.min,
        row.get("snapshot") or "",
        row["generated_on"],
    )


def assert_same_rows(table: Any, expected: list[dict[str, Any]]) -> None:
    """The table holds exactly the expected rows (any order), column for column."""
    rows = table.to_pylist()
    assert len(rows) == len(expected)
    assert sorted(rows, key=_row_key) == sorted(expected, key=_row_key)


def calendar_order(names: Any) -> list[str]:
    """Tenor names in calendar order, from first principles: continuous first,
    then calendar periods by first day and, for the same first day, shorter first."""

    def key(name: str) -> tuple[Any, ...]:
        kind, start, end = tenor_facts(name)
        if kind == "continuous":
            return (0, dt.date.min, dt.date.min, name)
        assert start is not None and end is not None, f"{name!r} is not a calendar tenor"
        return (1, start, end, name)

    return sorted(set(names), key=key)


def assert_sorted(table: Any) -> None:
    """Rows are in order of curve, tenor (calendar order), then time."""
    keys = [
        (c, mc.Tenor.parse(t, strict=False), g)
        for c, t, g in zip(
            table["curve_id"].to_pylist(),
            table["tenor"].to_pylist(),
            table["generated_on"].to_pylist(),
            strict=False,
        )
    ]
    for before, after in itertools.pairwise(keys):
        assert before <= after, (before, after)


class Wire:
    """The emulator over plain ``requests`` as the demo account: expected answers."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.base_url = emulator.base_url
        self.session = requests.Session()

    def close(self) -> None:
        self.session.close()

    def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        """The JSON body of ``GET {base_url}{path}`` (or of an absolute link)."""
        url = path if path.startswith("http") else self.base_url + path
        headers = {"Authorization": f"Bearer {self.emulator.token()}"}
        response = self.session.get(url, params=params, headers=headers, timeout=30)
        assert response.status_code == 200, (url, response.status_code, response.text)
        return response.json()

    def pages(self, path: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every page from the first, following ``next``."""
        bodies = [self.get(path, params)]
        while bodies[-1]["next"] is not None:
            assert len(bodies) < 2000, "next never ends"
            bodies.append(self.get(bodies[-1]["next"]))
        return bodies

    def catalogue(self, **params: Any) -> list[dict[str, Any]]:
        bodies = self.pages("/catalogue", {"pageSize": 50, **params})
        return [item for body in bodies for item in body["items"]]

    def settlements(self, curve_id: str, tenor: str, start: str, end: str) -> list[dict]:
        body = self.get(
            f"/historical/settlements/{curve_id}/{seg(tenor)}",
            {"startDate": start, "endDate": end},
        )
        return [
            expected_row(curve_id, entry["value"], date=dt.date.fromisoformat(entry["date"]))
            for entry in body
        ]

    def intraday_records(
        self, curve_id: str, tenor: str, start: str, end: str, page_size: int = 100
    ) -> list[dict[str, Any]]:
        query = {"startDate": start, "endDate": end, "pageSize": page_size}
        bodies = self.pages(f"/historical/intraday/{curve_id}/{seg(tenor)}", query)
        return [item for body in bodies for item in body["items"]]

    def intraday_history(self, curve_id: str, tenor: str, start: str, end: str) -> list[dict]:
        records = self.intraday_records(curve_id, tenor, start, end)
        return [expected_row(curve_id, r) for r in records]

    def intraday(self, curve_id: str, tenor: str) -> list[dict[str, Any]]:
        bodies = self.pages(f"/ongoing/intraday/{curve_id}/{seg(tenor)}")
        return [expected_row(curve_id, r) for body in bodies for r in body["items"]]

    def last_settlement(self, curve_id: str, tenor: str | None = None) -> list[dict]:
        if tenor is None:
            body = self.get(f"/ongoing/last-settlement/{curve_id}")
            return [expected_row(curve_id, r) for r in body["items"]]
        return [
            expected_row(curve_id, self.get(f"/ongoing/last-settlement/{curve_id}/{seg(tenor)}"))
        ]

    def last_assessments(self, curve_id: str, tenor: str | None = None) -> list[dict]:
        if tenor is None:
            sets = self.get(f"/ongoing/last-assessments/{curve_id}")["items"]
        else:
            sets = [self.get(f"/ongoing/last-assessments/{curve_id}/{seg(tenor)}")]
        rows = []
        for one in sets:
            for key, snapshot in _SNAPSHOTS.items():
                if one.get(key) is not None:
                    rows.append(expected_row(curve_id, one[key], snapshot=snapshot))
        return rows


class Helpers:
    """Module-level helpers, reached through the ``h`` fixture (test modules
    do not import this conftest)."""

    START = START
    TODAY = TODAY
    UTC = UTC
    CLOSED_URL = CLOSED_URL
    tenor_facts = staticmethod(tenor_facts)
    parse_generated_on = staticmethod(parse_generated_on)
    fraction_digits = staticmethod(fraction_digits)
    expected_row = staticmethod(expected_row)
    assert_same_rows = staticmethod(assert_same_rows)
    assert_sorted = staticmethod(assert_sorted)
    calendar_order = staticmethod(calendar_order)
    seg = staticmethod(seg)


@pytest.fixture(scope="session")
def h() -> type[Helpers]:
    return Helpers


def _find(curves: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> dict:
    for curve in curves:
        if test(curve):
            return curve
    pytest.fail("the emulator's catalogue has no curve of the kind this test needs")


@pytest.fixture(scope="module")
def client(em: Emulator) -> mc.Client:
    return em.client()


@pytest.fixture(scope="module")
def wire(em: Emulator) -> Iterator[Wire]:
    w = Wire(em)
    yield w
    w.close()


@pytest.fixture
def fresh_wire(fresh_em: Emulator) -> Iterator[Wire]:
    w = Wire(fresh_em)
    yield w
    w.close()


@pytest.fixture(scope="module")
def curves(wire: Wire) -> list[dict[str, Any]]:
    """The whole catalogue of the module's emulator, over plain requests."""
    return wire.catalogue()


def _licensed(curve: dict[str, Any]) -> bool:
    return curve["quotation"] != "Sales"


@pytest.fixture(scope="module")
def fob(curves: list[dict[str, Any]]) -> dict[str, Any]:
    """A licensed curve with the monthly and quarterly contracts of summer 2025."""
    return _find(
        curves,
        lambda c: c["quotation"] == "Fob" and {"Jul 25", "Aug 25", "Q3 25"} <= set(c["contracts"]),
    )


@pytest.fixture(scope="module")
def mixed(curves: list[dict[str, Any]]) -> dict[str, Any]:
    """A licensed curve with continuous, window, monthly and quarterly contracts."""

    def kinds(c: dict[str, Any]) -> set[str]:
        return {tenor_facts(t)[0] for t in c["contracts"]}

    return _find(
        curves,
        lambda c: _licensed(c) and {"continuous", "window", "month", "quarter"} <= kinds(c),
    )


@pytest.fixture(scope="module")
def coarse(wire: Wire, curves: list[dict[str, Any]]) -> dict[str, Any]:
    """A licensed curve with intraday values every 15 minutes (at most 100 a day,
    so a month of them is some fifty pages: cheap, but paged)."""
    for curve in curves:
        if not _licensed(curve) or "Aug 25" not in curve["contracts"]:
            continue
        items = wire.intraday_records(curve["id"], "Aug 25", "2025-06-12", "2025-06-12", 1000)
        if 0 < len(items) <= 100:
            return curve
    pytest.fail("no curve has intraday values every 15 minutes")


@pytest.fixture(scope="module")
def sales(curves: list[dict[str, Any]]) -> dict[str, Any]:
    """A curve outside the demo account's licence."""
    return _find(curves, lambda c: c["quotation"] == "Sales")


@pytest.fixture
def closed_client() -> mc.Client:
    """A client whose every request would fail with ServiceError at once."""
    return mc.Client(base_url=CLOSED_URL, token="never-sent", max_retries=0, timeout=2.0)


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No MARKETCURVES_* variable in the environment."""
    for name in ("BASE_URL", "LIVE_URL", "TOKEN", "EMAIL", "PASSWORD"):
        monkeypatch.delenv(f"MARKETCURVES_{name}", raising=False)
    return monkeypatch
