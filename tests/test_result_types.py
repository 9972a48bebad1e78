"""Each dict the package hands out has exactly the keys of its TypedDict:
the live feed's counters and events, the recorder's compacted days, and
what the history cache holds and clears. The catalogue's rows, which
``Curve`` is made from, are the stubs' ``_CurveRow``. The core builds them
(``src/python/results.rs``); the types are what users and type checkers
read, so the two must not drift apart. The recorder's and the backfill's
summaries are dataclasses made from the core's dicts, which the stubs type
as private TypedDicts of the same fields."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from support import LIVE_START, start_emulator

import marketcurves as mc
from marketcurves import _core, _live_types
from marketcurves.cache import CachedCurve, CacheInfo, Cleared
from marketcurves.record import CompactedDay, RecordSummary

#: Emulated seconds per real second, and the keep-alive that rides through
#: the feed's idle drop at that speed.
SCALE = 60
KEEPALIVE = {"ping_interval": 30.0 / SCALE, "pong_timeout": 0.5, "reconnect_max": 0.5}
EVENTS = {
    "connected": _live_types.ConnectedEvent,
    "disconnected": _live_types.DisconnectedEvent,
    "reconnected": _live_types.ReconnectedEvent,
    "gap_filled": _live_types.GapFilledEvent,
    "conflated": _live_types.ConflatedEvent,
    "error": _live_types.ErrorEvent,
}


def assert_typed(value: dict[str, Any], typed: Any) -> None:
    """Every key the type requires, and none it does not name."""
    required, optional = set(typed.__required_keys__), set(typed.__optional_keys__)
    assert required <= set(value) <= required | optional, (typed.__name__, sorted(value))


def test_the_live_feeds_counters_and_events_are_their_typed_dicts():
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em:
        seen: dict[str, dict[str, Any]] = {}
        on_event = lambda event: seen.setdefault(event["kind"], event)  # noqa: E731
        with em.client() as client, client.live(on_event=on_event, **KEEPALIVE) as feed:
            curve = next(c for c in client.catalogue() if c.quotation != "Sales")
            feed.subscribe(curve, "*")
            assert feed.next(timeout=10) is not None
            em.drop_live_connections()
            while "reconnected" not in seen and feed.next(timeout=10) is not None:
                pass
            stats = feed.stats()
    assert_typed(stats, _live_types.LiveStats)
    assert {"connected", "disconnected", "reconnected"} <= set(seen)
    for kind, event in seen.items():
        assert_typed(event, EVENTS[kind])


def stub_typed_dict(name: str) -> set[str]:
    """The keys of a TypedDict of the core's stubs, which are not imported."""
    tree = ast.parse(Path(_core.__file__).with_name("_core.pyi").read_text(encoding="utf-8"))
    typed = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    fields = [n.target for n in typed.body if isinstance(n, ast.AnnAssign)]
    return {f.id for f in fields if isinstance(f, ast.Name)}


@pytest.mark.parametrize(
    ("summary", "counts"),
    [(RecordSummary, "_RecordCounts"), (mc.BackfillSummary, "_BackfillCounts")],
)
def test_the_stubs_type_the_summaries_dicts_with_their_fields(summary, counts):
    assert stub_typed_dict(counts) == {f.name for f in dataclasses.fields(summary)}


def test_the_catalogues_rows_are_the_stubs_typed_dict():
    with start_emulator() as em, em.client() as client:
        request = {"vertical": None, "quotation": None, "region": None, "custom": [], "cache": None}
        rows = client._core.catalogue(request).wait()
        curve = client.catalogue()[0]
    assert rows
    keys = stub_typed_dict("_CurveRow")
    assert all(set(row) == keys for row in rows), sorted(rows[0])
    # Curve's fields, by the same names.
    assert keys == {f.name for f in dataclasses.fields(mc.Curve)}
    assert rows[0]["id"] == curve.id and tuple(rows[0]["contracts"]) == curve.contracts


def test_a_recorders_summary_and_compacted_days_are_their_types(tmp_path):
    with start_emulator(time_scale=SCALE, start=LIVE_START) as em:
        with em.client() as client:
            curve = next(c for c in client.catalogue() if c.quotation != "Sales")
            summary = client.record(
                tmp_path, [(curve, "*")], rotate_rows=5, compact=False, duration=3, **KEEPALIVE
            )
    # Made from the core's dict, field by field: a key too many or too few
    # would have failed there (RecordSummary's fields have no defaults).
    assert isinstance(summary, RecordSummary)
    assert summary.files_written >= 2
    days = mc.record.compact(tmp_path, "2025-06-30")
    assert days
    for day in days:
        assert_typed(day, CompactedDay)


def test_what_the_cache_holds_and_clears_are_their_typed_dicts(tmp_path):
    with start_emulator() as em:
        with em.client(cache_dir=tmp_path) as client:
            curve = next(c for c in client.catalogue() if c.contracts)
            client.settlements(curve, "2025-06-02", "2025-06-06", curve.contracts[0])
            info = client.cache_info()
            cleared = client.clear_cache()
    assert_typed(info, CacheInfo)
    assert info["curves"]
    for entry in info["curves"]:
        assert_typed(entry, CachedCurve)
    assert_typed(cleared, Cleared)
