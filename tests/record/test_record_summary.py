"""The recorder's summary as an object: its figures by name, read as
attributes and, for code written when it was a dict, by key; unchangeable,
and not iterable (a dict's keys are not its figures)."""

from __future__ import annotations

import dataclasses

import pytest

import marketcurves as mc

FIGURES = {
    "ticks_written": 1200,
    "files_written": 3,
    "backfilled": 40,
    "reconnects": 1,
    "restarts": 0,
    "write_failures": 2,
    "compacted_days": 1,
    "unwritten": 5,
}


def test_it_reads_each_figure_by_key_as_the_dict_did():
    summary = mc.RecordSummary(**FIGURES)
    assert {name: summary[name] for name in FIGURES} == FIGURES
    assert dataclasses.asdict(summary) == FIGURES


def test_a_key_that_is_not_a_figure_is_a_key_error():
    summary = mc.RecordSummary(**FIGURES)
    for key in ("ticks", "__class__", "_repr_html_", 0):
        with pytest.raises(KeyError):
            summary[key]


def test_it_is_neither_iterable_nor_changeable():
    summary = mc.RecordSummary(**FIGURES)
    with pytest.raises(TypeError, match="not iterable"):
        list(summary)
    with pytest.raises(TypeError, match="not iterable"):
        "ticks_written" in summary  # noqa: B015 (the test is that it raises)
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.ticks_written = 0  # type: ignore[misc]


def test_it_takes_every_figure():
    """The core's dict becomes a summary only with every figure named."""
    partial = {k: v for k, v in FIGURES.items() if k != "unwritten"}
    with pytest.raises(TypeError, match="unwritten"):
        mc.RecordSummary(**partial)
    with pytest.raises(TypeError, match="dropped"):
        mc.RecordSummary(**FIGURES, dropped=1)
