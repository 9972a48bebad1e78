"""``marketcurves replay``: a lake replayed to ndjson and to Parquet, the
values ``Client.replay`` gives; usage errors before anything is read."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pyarrow.parquet as pq


def _cli(args, em):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MARKETCURVES_")}
    env |= {"MARKETCURVES_BASE_URL": em.base_url, "MARKETCURVES_TOKEN": em.token()}
    return subprocess.run(
        [sys.executable, "-m", "marketcurves", "replay", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_lake_replays_to_ndjson_and_parquet(recorded, tmp_path):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    times = sorted(r["generated_on"] for r in rows)
    span = ["--start", times[0].isoformat(), "--end", times[-1].isoformat()]
    base = ["--source", str(lake), "--curve", curve.id, *span]
    result = _cli([*base, "--format", "ndjson"], em)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    with em.client() as client, client.replay(times[0], times[-1], source=lake) as feed:
        feed.subscribe(curve.id, "*")
        expected = [(t.tenor, t.price, t.source) for t in feed]
    assert [(x["tenor"], x["price"], x["source"]) for x in lines] == expected != []
    assert f"{len(expected):,} ticks replayed" in result.stderr
    out = tmp_path / "replay.parquet"
    result = _cli([*base, "--format", "parquet", "-o", str(out)], em)
    assert result.returncode == 0, result.stderr
    written = pq.read_table(out)
    assert written.num_rows == len(expected)
    # The file names the curve as the replay's batches do.
    [named] = json.loads(written.schema.metadata[b"marketcurves.curves"])
    assert (named["id"], named["name"], named["units"]) == (curve.id, curve.name, curve.units)


def test_bad_input_exits_before_reading(recorded):
    em, curve = recorded["em"], recorded["curve"]
    span = ["--start", "2025-06-11T10:00", "--end", "2025-06-11T09:00"]
    backwards = _cli(["--source", "service", "--curve", curve.id, *span], em)
    assert backwards.returncode == 1 and "before start" in backwards.stderr
    speed = _cli(
        [
            "--source",
            "service",
            "--curve",
            curve.id,
            "--start",
            "2025-06-11",
            "--end",
            "2025-06-11",
            "--speed",
            "fast",
        ],
        em,
    )
    assert speed.returncode == 2 and "--speed" in speed.stderr


def test_a_mistyped_tenor_is_refused_unless_no_strict(recorded):
    em, lake, curve, rows = recorded["em"], recorded["lake"], recorded["curve"], recorded["rows"]
    times = sorted(r["generated_on"] for r in rows)
    span = ["--start", times[0].isoformat(), "--end", times[-1].isoformat()]
    base = ["--source", str(lake), "--curve", curve.id, "--tenor", "Jan 19", *span]
    refused = _cli([*base, "--format", "ndjson"], em)
    assert refused.returncode == 1
    assert "deliver nothing" in refused.stderr and refused.stdout == ""
    anyway = _cli([*base, "--format", "ndjson", "--no-strict"], em)
    assert anyway.returncode == 0, anyway.stderr
    assert anyway.stdout == "" and "0 ticks replayed" in anyway.stderr
