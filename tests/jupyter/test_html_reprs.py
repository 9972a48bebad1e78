"""Jupyter's views (``_repr_html_``) of Curve, Catalogue, Tenor, BulkJob,
BulkResult, LiveFeed, the recorder's and the backfill's summaries and a
lake's report: well-formed HTML holding the object's key facts, its values
escaped, no secret in it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_helpers import read_html

import marketcurves as mc
from marketcurves.testing import Emulator


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """Bulk jobs and the live feed run on the emulator's clock: a fast one."""
    return {"time_scale": 300}


@pytest.fixture(scope="module")
def client(em: Emulator) -> Iterator[mc.Client]:
    with em.client() as c:
        yield c


@pytest.fixture(scope="module")
def jet(client: mc.Client) -> mc.Catalogue:
    return client.catalogue(vertical="Jet")


def test_curve(jet):
    curve = jet[0]
    tags, text = read_html(curve._repr_html_())
    assert "table" in tags
    for fact in (curve.name, curve.id, curve.units, curve.quotation, curve.region, "Jet"):
        assert fact in text
    assert f"contracts ({len(curve.contracts)})" in text
    # Contracts listed in calendar order.
    first = [t.name for t in curve.tenors][:3]
    assert ", ".join(first) in text


def test_values_are_escaped():
    curve = mc.Curve(
        id="<b>id</b>",
        name="<script>alert('x')</script>",
        quotation="Fob & Cif",
        units='"$/bbl"',
        filters={"vertical": "Jet", "grade": "<i>10ppm</i>"},
        properties={"note": "a < b"},
        contracts=("Jan 26", "<Q1 26>"),
    )
    markup = curve._repr_html_()
    tags, text = read_html(markup)
    assert set(tags) <= {"div", "strong", "table", "tr", "th", "td"}
    for value in (
        "<script>alert('x')</script>",
        "<b>id</b>",
        "Fob & Cif",
        '"$/bbl"',
        "<i>10ppm</i>",
        "a < b",
    ):
        assert value in text
    assert "<script>" not in markup
    tags, _ = read_html(mc.Catalogue([curve])._repr_html_())
    assert "script" not in tags and "b" not in tags


def test_catalogue(jet):
    tags, text = read_html(jet._repr_html_())
    assert f"Catalogue of {len(jet)} curves" in text
    assert tags.count("tr") == 1 + len(jet)
    assert all(c.id in text for c in jet)


def test_tenor():
    _, text = read_html(mc.Tenor("26-EOM Feb 24")._repr_html_())
    assert "26-EOM Feb 24" in text and "window" in text and "2024-02-26 .. 2024-02-29" in text
    _, text = read_html(mc.Tenor.parse("Cal 27", strict=False)._repr_html_())
    assert "Cal 27" in text and "other" in text and "delivery" not in text


def test_bulk_job_and_result(em, client, tmp_path):
    with pytest.warns(UserWarning, match="narrowed"):
        job = client.bulk_submit("JET", "2024-02", "2024-04")
    _, text = read_html(job._repr_html_())
    assert job.job_id in text and "2024-02 .. 2024-04" in text and "2024-03 .. 2024-04" in text
    assert "narrowed|yes" in text
    result = job.download(tmp_path, progress=False)
    markup = result._repr_html_()
    _, text = read_html(markup)
    assert f"Bulk download {result.job_id}" in text
    assert f"files|{len(result.files)}" in text and len(result.files) == 2
    assert f"rows|{result.rows:,}" in text and f"bytes downloaded|{result.bytes:,}" in text
    assert str(result.files[0]) in text
    assert "X-Amz" not in markup and "Signature" not in markup and em.token()[:20] not in markup


def test_live_feed_shows_its_counters(em, client, jet):
    curve = jet[0]
    token = em.token()
    with client.live(ping_interval=0.1, pong_timeout=0.5, reconnect_max=0.5) as feed:
        feed.subscribe(curve, "*")
        ticks = [feed.next(timeout=10) for _ in range(3)]
        assert all(ticks)
        stats = feed.stats()
        markup = feed._repr_html_()
    _, text = read_html(markup)
    assert "Live feed" in text and "state|connected" in text
    # Subscribed as a Curve: shown by its name.
    assert f"subscriptions (1)|{curve.name} *" in text
    assert f"ticks delivered|{stats['ticks_delivered']:,}" in text and stats["ticks_delivered"] >= 3
    assert f"last message (UTC)|{stats['last_message']:%Y-%m-%d %H:%M:%S}" in text
    assert token[:20] not in markup
    _, text = read_html(feed._repr_html_())
    assert "state|closed" in text


def test_a_live_feed_given_ids_shows_them(em, client, jet):
    with client.live() as feed:
        feed.subscribe(jet[0].id, "*")
        _, text = read_html(feed._repr_html_())
    assert f"subscriptions (1)|{jet[0].id} *" in text


def test_a_recorders_summary_shows_its_figures(em, client, jet, tmp_path):
    keepalive = {"ping_interval": 0.1, "pong_timeout": 0.5, "reconnect_max": 0.5}
    summary = client.record(tmp_path, [(jet[0], "*")], duration=1, **keepalive)
    assert summary.ticks_written > 0
    _, text = read_html(summary._repr_html_())
    assert "Recorder summary" in text
    for label, figure in (
        ("ticks written", summary.ticks_written),
        ("files written", summary.files_written),
        ("backfilled", summary.backfilled),
        ("reconnects", summary.reconnects),
        ("restarts", summary.restarts),
        ("write failures", summary.write_failures),
        ("days compacted", summary.compacted_days),
        ("unwritten", summary.unwritten),
    ):
        assert f"{label}|{figure:,}" in text


def test_a_backfills_summary_and_the_lakes_report_show_their_figures(client, jet, tmp_path):
    curve = jet[0]
    summary = client.backfill(tmp_path, [(curve, curve.contracts[3])], "2025-06-10", "2025-06-11")
    _, text = read_html(summary._repr_html_())
    assert "Backfill summary" in text
    assert f"values written|{summary.values:,}" in text and summary.values > 0
    assert f"requests|{summary.requests}" in text and "days complete|2" in text
    assert "days already complete|0" in text and f"files written|{summary.files_written}" in text
    report = mc.check_lake(tmp_path)
    tags, text = read_html(report._repr_html_())
    assert report.ok and "Lake check: whole" in text
    assert "tenors|1" in text and "business days missing|0" in text
    assert "recorder|none wrote here" in text
    # Eleven facts, then a header and a row per tenor: its days recorded,
    # backfilled and missing.
    row = f"{curve.id}|{curve.contracts[3]}|2025-06-10|2025-06-11|0|2|0"
    assert row in text and tags.count("tr") == 11 + 1 + 1


def test_a_lake_reports_faults_show_escaped():
    day = dt.date(2026, 1, 13)
    report = mc.LakeReport(
        tenors=[
            {
                "curve_id": "<i>c1</i>",
                "tenor": "Feb 26",
                "first_day": dt.date(2026, 1, 12),
                "last_day": dt.date(2026, 1, 14),
                "days_recorded": 1,
                "days_backfilled": 1,
                "missing_days": [day],
            }
        ],
        held_twice=[{"curve_id": "<i>c1</i>", "tenor": "Feb 26", "day": day, "values": 1500}],
        counted_twice=["date=2026-01-12/part-a.parquet"],
        unreadable=[{"file": "date=2026-01-14/<b>x</b>.parquet", "reason": "not Parquet"}],
        recorder={
            "state": "running",
            "updated_at": "2026-01-15T10:00:00Z",
            "running": False,
            "not_recorded_since": [],
        },
    )
    tags, text = read_html(report._repr_html_())
    assert not report.ok and "Lake check: not whole" in text
    assert "business days missing|1" in text and "values held twice|1,500" in text
    assert "files counted twice|date=2026-01-12/part-a.parquet" in text
    assert "unreadable files|date=2026-01-14/<b>x</b>.parquet" in text
    assert "recorder|not running (status running, 2026-01-15T10:00:00Z)" in text
    assert "<i>c1</i>|Feb 26|2026-01-12|2026-01-14|1|1|1" in text
    assert "b" not in tags and "i" not in tags
