"""A live feed's batches name their curves in their schema metadata
(``marketcurves.curves``): every curve subscribed to, with the name, units
and quotation of the catalogue where the feed knows them, by id alone where
it does not; so a plot of a table of live batches names its curve."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from live_helpers import open_feed

import marketcurves as mc

KEY = b"marketcurves.curves"


@pytest.fixture
def plt() -> Iterator[Any]:
    """matplotlib drawing without a display; figures closed after."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.close("all")
    yield plt
    plt.close("all")


def entry(curve: dict[str, Any]) -> dict[str, Any]:
    """The key's entry for a curve, from the service's own catalogue row."""
    return {k: curve.get(k) for k in ("id", "name", "units", "quotation")}


def named(batch: pa.RecordBatch | pa.Table) -> list[dict[str, Any]]:
    return json.loads(batch.schema.metadata[KEY])


def batches_until(feed: mc.LiveFeed, enough: Any, seconds: float = 30) -> list[pa.RecordBatch]:
    """The feed's batches until ``enough(batches)``; the feed is closed
    after ``seconds`` at most, which ends the read."""
    timer = threading.Timer(seconds, feed.close)
    timer.start()
    batches: list[pa.RecordBatch] = []
    try:
        for batch in feed.batches(timeout=0.3):
            batches.append(batch)
            if enough(batches):
                break
    finally:
        timer.cancel()
    assert enough(batches), f"not enough within {seconds} s: {batches}"
    return batches


def rows_of(curve_id: str) -> Any:
    return lambda batches: any(curve_id in b["curve_id"].to_pylist() for b in batches)


def wait_for(condition: Any, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s"
        time.sleep(0.02)


def test_a_batch_names_the_subscribed_curve_as_the_catalogue_does(em, curves):
    curve = curves.fast
    with open_feed(em) as feed:
        feed.subscribe(curve["id"], "*")
        # An iteration left with `break` holds the rest of what it took:
        # those ticks come as a batch of the feed's schema too.
        wait_for(lambda: feed.stats()["queued"] >= 2)
        for _ in feed:
            break
        [held, batch] = batches_until(feed, lambda b: len(b) == 2)
        assert held.num_rows > 0 and batch.num_rows > 0
        assert named(held) == [entry(curve)]
        assert named(batch) == [entry(curve)]
        # to_pandas keeps the list.
        assert mc.to_pandas(batch).attrs["marketcurves.curves"] == [entry(curve)]


def test_a_plot_of_live_batches_is_titled_with_the_curve_name(em, curves, plt):
    curve = curves.fast
    client = em.client()
    other = next(
        c for c in client.catalogue() if c.quotation != "Sales" and c.units != curve["units"]
    )
    with client.live() as feed:
        feed.subscribe(curve["id"], "*")
        feed.subscribe(other.id, "*")
        batches = batches_until(feed, lambda b: rows_of(curve["id"])(b) and rows_of(other.id)(b))
    table = pa.Table.from_batches(batches, schema=batches[-1].schema)
    assert [c["id"] for c in named(table)] == [curve["id"], other.id]
    # The batches name both curves; the plot of one takes its own units.
    ours = table.filter(pc.field("curve_id") == curve["id"])
    ax = mc.plot.forward_curve(ours)
    assert ax.get_title().splitlines()[-1] == curve["name"]
    assert ax.get_ylabel() == f"price ({curve['units']})"


def test_a_curve_missing_from_the_catalogue_is_named_by_id_alone(em, curves):
    listed = curves.fast
    with open_feed(em) as feed:
        # A strict subscription reads the catalogue; the client keeps it.
        feed.subscribe(listed["id"], "*")
        before = {c.id for c in em.client().catalogue(vertical="Jet")}
        em.add_curves("Jet", 1)
        [added] = [c for c in em.client().catalogue(vertical="Jet") if c.id not in before]
        # Not in the catalogue the client keeps, so subscribed to non-strict.
        feed.subscribe(added.id, "*", strict=False)
        batches = batches_until(feed, rows_of(added.id))
    unnamed = {"id": added.id, "name": None, "units": None, "quotation": None}
    assert named(batches[-1]) == [entry(listed), unnamed]
