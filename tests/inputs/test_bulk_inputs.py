"""Bulk download: ``bulk_submit``, ``bulk_download``, ``BulkJob.wait`` and
``download``, ``mc.read_bulk``. Each bad argument raises InvalidRequest naming
it; nothing is sent, and no destination folder or file is created."""

from __future__ import annotations

import datetime as dt
import math
import os
from pathlib import Path
from typing import Any

import pytest
from inputs_helpers import assert_invalid, tree

import marketcurves as mc

MONTHS = ("2025-01", "2025-02")

# (vertical, start, end, the argument named)
SUBMIT_CASES: list[tuple[Any, Any, Any, str]] = [
    ("", *MONTHS, "vertical"),
    ("   ", *MONTHS, "vertical"),
    (None, *MONTHS, "vertical"),
    (b"JET", *MONTHS, "vertical"),
    ("Coal", *MONTHS, "vertical"),
    ("JET FUEL", *MONTHS, "vertical"),
    ("JET", "", MONTHS[1], "start"),
    ("JET", None, MONTHS[1], "start"),
    ("JET", 202501, MONTHS[1], "start"),
    ("JET", True, MONTHS[1], "start"),
    ("JET", "2025-13", MONTHS[1], "start"),
    ("JET", "2025-00", MONTHS[1], "start"),
    ("JET", "2025-01-15", MONTHS[1], "start"),
    ("JET", "Jan 2025", MONTHS[1], "start"),
    ("JET", MONTHS[0], "", "end"),
    ("JET", MONTHS[0], "25-02", "end"),
    ("JET", MONTHS[0], 2.5, "end"),
    ("JET", "2025-03", "2025-02", "start"),
    ("JET", dt.date(2025, 3, 1), dt.datetime(2025, 2, 28, 23), "start"),
]


@pytest.mark.parametrize(("vertical", "start", "end", "name"), SUBMIT_CASES, ids=repr)
def test_bulk_submit(unsent, vertical, start, end, name):
    assert_invalid(lambda: unsent.bulk_submit(vertical, start, end), name)


@pytest.mark.parametrize(("vertical", "start", "end", "name"), SUBMIT_CASES, ids=repr)
def test_bulk_download_checks_the_range_before_making_dest(
    unsent, tmp_path, vertical, start, end, name
):
    dest = tmp_path / "dest"
    assert_invalid(lambda: unsent.bulk_download(vertical, start, end, dest, progress=False), name)
    assert tree(tmp_path) == []


def a_file(folder: Path) -> Path:
    file = folder / "a-file"
    file.write_text("not a folder")
    return file


# Each makes the bad value inside an empty folder: (how, the words of the message).
DEST_CASES = {
    "an int": (lambda tmp: 5, ["dest", "path"]),
    "None": (lambda tmp: None, ["dest", "path"]),
    "an empty str": (lambda tmp: "", ["dest", "empty"]),
    "blanks": (lambda tmp: "  ", ["dest", "empty"]),
    "bytes": (lambda tmp: os.fsencode(tmp / "dest"), ["dest", "path"]),
    "a NUL character": (lambda tmp: f"{tmp}/de\0st", ["dest", "NUL"]),
    "a file": (lambda tmp: a_file(tmp), ["dest", "is a file"]),
    "a folder under a file": (lambda tmp: a_file(tmp) / "sub", ["dest", "is a file"]),
}

# (keyword, value, the argument named)
OPTION_CASES: list[tuple[str, Any, str]] = [
    ("progress", "yes", "progress"),
    ("progress", None, "progress"),
    ("progress", 1, "progress"),
    ("poll_interval", 0, "poll_interval"),
    ("poll_interval", -1, "poll_interval"),
    ("poll_interval", "2", "poll_interval"),
    ("poll_interval", math.nan, "poll_interval"),
    ("poll_interval", math.inf, "poll_interval"),
    ("timeout", 0, "timeout"),
    ("timeout", None, "timeout"),
    ("timeout", "3600", "timeout"),
    ("timeout", math.inf, "timeout"),
]


@pytest.mark.parametrize("case", list(DEST_CASES))
def test_bulk_download_refuses_a_bad_dest(unsent, tmp_path, case):
    make, words = DEST_CASES[case]
    dest = make(tmp_path)
    before = tree(tmp_path)
    assert_invalid(lambda: unsent.bulk_download("JET", *MONTHS, dest, progress=False), *words)
    assert tree(tmp_path) == before


@pytest.mark.parametrize(("keyword", "value", "name"), OPTION_CASES, ids=repr)
def test_bulk_download_options(unsent, tmp_path, keyword, value, name):
    options: dict[str, Any] = {"progress": False, keyword: value}
    assert_invalid(lambda: unsent.bulk_download("JET", *MONTHS, tmp_path / "dest", **options), name)
    assert tree(tmp_path) == []


def read_only_folder(tmp_path: Path) -> Path:
    """A folder this process cannot write into, or a skip if there is none
    (root writes anywhere on a writable file system)."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o500)
        return folder
    for candidate in (Path("/proc/sys"), Path("/sys")):
        if candidate.is_dir() and not os.access(candidate, os.W_OK):
            return candidate
    pytest.skip("no folder is read-only for root here")


@pytest.mark.parametrize("inside", [False, True], ids=["dest", "a new folder in it"])
def test_bulk_download_refuses_a_dest_it_cannot_write(unsent, tmp_path, inside):
    folder = read_only_folder(tmp_path)
    dest = folder / "new" if inside else folder
    try:
        assert_invalid(
            lambda: unsent.bulk_download("JET", *MONTHS, dest, progress=False),
            "dest",
            "not writable",
        )
        assert not (folder / "new").exists()
    finally:
        if folder.is_relative_to(tmp_path):
            folder.chmod(0o700)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")
def test_bulk_download_refuses_a_dest_where_nothing_can_be_made(unsent):
    # /proc: the system tells root it may write there, and refuses any file.
    assert_invalid(
        lambda: unsent.bulk_download("JET", *MONTHS, "/proc/marketcurves", progress=False),
        "dest",
        "not writable",
    )


# BulkJob and read_bulk, on a real (never ending: the clock is stopped) job.


@pytest.fixture
def job(em) -> mc.BulkJob:
    client = em.client(token=em.token("full@marketcurves.test"), max_retries=0)
    return client.bulk_submit("JET", *MONTHS)


def nothing_sent_since(em, job: mc.BulkJob) -> None:
    """The status request failed by ``fail_next`` is still pending: none of the
    bad calls before reached the emulator."""
    with pytest.raises(mc.ServiceError, match="500"):
        job.status()
    assert job.status() == "RUNNING"


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"poll_interval": 0}, "poll_interval"),
        ({"poll_interval": "1"}, "poll_interval"),
        ({"poll_interval": None}, "poll_interval"),
        ({"poll_interval": -math.inf}, "poll_interval"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": "60"}, "timeout"),
        ({"timeout": math.nan}, "timeout"),
        ({"timeout": True}, "timeout"),
    ],
    ids=repr,
)
def test_job_wait(em, job, kwargs, name):
    em.fail_next(1, 500, path="/bulk-download/job-status")
    assert_invalid(lambda: job.wait(**kwargs), name)
    nothing_sent_since(em, job)


@pytest.mark.parametrize("case", list(DEST_CASES))
def test_job_download_refuses_a_bad_dest(em, job, tmp_path, case):
    make, words = DEST_CASES[case]
    dest = make(tmp_path)
    before = tree(tmp_path)
    em.fail_next(1, 500, path="/bulk-download/job-status")
    assert_invalid(lambda: job.download(dest, progress=False), *words)
    assert tree(tmp_path) == before
    nothing_sent_since(em, job)


def test_job_download_refuses_a_bad_progress(em, job, tmp_path):
    em.fail_next(1, 500, path="/bulk-download/job-status")
    assert_invalid(lambda: job.download(tmp_path / "dest", progress="yes"), "progress")
    assert tree(tmp_path) == []
    nothing_sent_since(em, job)


READ_CASES: list[tuple[dict[str, Any], str]] = [
    ({"vertical": "Coal"}, "vertical"),
    ({"vertical": ""}, "vertical"),
    ({"vertical": 5}, "vertical"),
    ({"start": "2025-13"}, "start"),
    ({"start": ""}, "start"),
    ({"start": 202501}, "start"),
    ({"end": "2025"}, "end"),
    ({"start": "2025-03", "end": "2025-02"}, "start"),
    ({"parse_json": "yes"}, "parse_json"),
    ({"parse_json": 1}, "parse_json"),
]


@pytest.mark.parametrize(("kwargs", "name"), READ_CASES, ids=repr)
def test_read_bulk(tmp_path, kwargs, name):
    assert_invalid(lambda: mc.read_bulk(tmp_path, **kwargs), name)


@pytest.mark.parametrize("case", [c for c in DEST_CASES if c != "a folder under a file"])
def test_read_bulk_refuses_a_bad_dest(tmp_path, case):
    make, words = DEST_CASES[case]
    words = ["dest"] if case == "a file" else words
    assert_invalid(lambda: mc.read_bulk(make(tmp_path)), *words)


def test_read_bulk_refuses_a_missing_folder(tmp_path):
    assert_invalid(lambda: mc.read_bulk(tmp_path / "missing"), "dest", "not a folder")
    assert tree(tmp_path) == []
