"""A replay's batches name their curves in their schema metadata
(``marketcurves.curves``), as a live feed's do: from the client's
catalogue, by id alone when the client has none (offline)."""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

KEY = b"marketcurves.curves"


def named(batch: pa.RecordBatch) -> list[dict[str, Any]]:
    return json.loads(batch.schema.metadata[KEY])


def replayed_batches(client: Any, recorded: dict[str, Any]) -> list[pa.RecordBatch]:
    """The batches of a replay of the recording's last two thirds: it ends
    at the recording's end."""
    times = sorted(r["generated_on"] for r in recorded["rows"])
    first, last = times[0], times[-1]
    with client.replay(first + (last - first) / 3, last, source=recorded["lake"]) as feed:
        feed.subscribe(recorded["curve"].id, "*")
        return list(feed.batches(timeout=None))


def test_a_replay_names_its_curve_from_the_catalogue(recorded):
    curve = recorded["curve"]
    with recorded["em"].client() as client:
        batches = replayed_batches(client, recorded)
    assert batches and all(b.num_rows for b in batches)
    entry = {"id": curve.id, "name": curve.name, "units": curve.units, "quotation": curve.quotation}
    assert all(named(b) == [entry] for b in batches)


def test_an_offline_replay_names_its_curve_by_id_alone(recorded, tmp_path):
    curve = recorded["curve"]
    with recorded["em"].client(cache_dir=tmp_path, cache="offline") as client:
        batches = replayed_batches(client, recorded)
    assert batches
    entry = {"id": curve.id, "name": None, "units": None, "quotation": None}
    assert all(named(b) == [entry] for b in batches)
