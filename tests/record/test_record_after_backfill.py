"""A recorder started on a lake the backfill wrote resumes after the newest
value there: the lake then holds each published value once, for
``read_ticks`` and for a plain Parquet reader alike."""

from __future__ import annotations

import datetime as dt

import pyarrow.dataset as ds
from record_helpers import check_exactly_once, keepalive, recorded

import marketcurves as mc


def test_the_recorder_resumes_after_the_backfill_and_repeats_nothing(em, busy_curve, tmp_path):
    with em.client() as client:
        curve = next(c for c in client.catalogue() if c.id == busy_curve)
        tenors = [t for t in curve.contracts if not t.startswith("C ")][:3]
        now = em.now()
        backfilled = client.backfill(
            tmp_path, [(busy_curve, t) for t in tenors], now.date() - dt.timedelta(days=1), now
        )
        assert backfilled.values > 0
        before = {t: rows[-1][0] for t, rows in recorded(tmp_path, busy_curve).items()}
        summary = client.record(
            tmp_path, [(busy_curve, t) for t in tenors], rotate="1s", duration=3, **keepalive()
        )
    assert summary.ticks_written > 0
    rows = recorded(tmp_path, busy_curve)
    for tenor, values in rows.items():
        later = [t for t, _, source in values if source != "backfill"]
        assert later and min(later) > before[tenor], tenor
    last = min(values[-1][0] for values in rows.values())
    check_exactly_once(em, tmp_path, busy_curve, until=last)
    lake = ds.dataset(tmp_path, format="parquet", partitioning="hive")
    assert lake.count_rows() == mc.read_ticks(tmp_path).num_rows
