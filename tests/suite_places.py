"""Where the suite's tests live, as tests/conftest.py uses it: the marks
of each place, and the files run first."""

from __future__ import annotations

#: The markers of each place (registered in pyproject.toml): what its tests
#: need, and whether `pytest -m "not slow"` (the core behaviour, in under
#: two minutes) leaves them out.
MARKS_BY_PATH = {
    # Also run at the lowest versions the package declares (.ci/lowest-versions).
    "tests/test_arrow_tables.py": ("floor",),
    "tests/client/test_pandas.py": ("floor",),
    "tests/curves/": ("floor",),
    "tests/plot/": ("floor",),
    "tests/jupyter/": ("floor",),
    "tests/docs/": ("docs", "slow"),
    "tests/storage/": ("s3", "slow"),
    "tests/faults/test_matrix.py": ("slow",),
    "tests/live/test_scale.py": ("slow",),
    "tests/record/test_record_scale.py": ("slow",),
    "tests/record/test_record_faults.py": ("slow",),
    "tests/record/test_record_process.py": ("subprocess", "slow"),
    "tests/cli/": ("subprocess",),
    "tests/mcp/": ("subprocess",),
    "tests/browser/": ("browser", "slow"),
    "tests/test_process_state.py": ("subprocess",),
}


#: The files that keep a worker longest (about 15 to 80 s each, on CI's
#: wheel), run first: pytest-xdist hands files out in the order collected
#: (scripts/test: --dist loadfile --no-loadscope-reorder), and short files
#: last even out the workers' ends. Only the order: a file not named here
#: runs as collected, after these.
SLOWEST_FIRST = (
    "tests/faults/test_matrix.py",
    "tests/record/test_record.py",
    "tests/live/test_reconnect.py",
    "tests/live/test_forms.py",
    "tests/docs/test_reference_pages.py",
    "tests/record/test_record_faults.py",
    "tests/record/test_record_process.py",
    "tests/docs/test_site.py",
    "tests/storage/test_cache_s3_packs.py",
    "tests/replay/test_replay.py",
    "tests/emulator/test_live.py",
    "tests/docs/test_examples.py",
    "tests/bulk/test_bulk_client.py",
    "tests/docs/test_docstring_examples.py",
    "tests/backfill/test_backfill_process.py",
    "tests/cli/test_cli_live.py",
    "tests/docs/test_notebook.py",
)
