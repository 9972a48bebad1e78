"""The places tests/suite_places.py names (for marks and for the order
files run in) are files and folders of the suite: a name left behind by a
move would mark or order nothing, silently."""

from __future__ import annotations

from pathlib import Path

from suite_places import MARKS_BY_PATH, SLOWEST_FIRST

ROOT = Path(__file__).resolve().parent.parent


def test_every_file_run_first_is_a_test_file():
    missing = [where for where in SLOWEST_FIRST if not (ROOT / where).is_file()]
    assert missing == []
    assert len(set(SLOWEST_FIRST)) == len(SLOWEST_FIRST)


def test_every_marked_place_is_in_the_suite():
    missing = [where for where in MARKS_BY_PATH if not (ROOT / where).exists()]
    assert missing == []
