"""``marketcurves bulk``: the export downloaded, what it did printed as JSON
or as the list of its files, compared with the files read back."""

from __future__ import annotations

import json

from cli_helpers import environment, ok, one_line_error, run_cli
from support import BULK_TIME_SCALE, start_emulator

import marketcurves as mc


def test_json_then_a_rerun_listing_the_files(tmp_path):
    dest = tmp_path / "bulk"
    # Jobs run on the emulator's clock: a fast one finishes them at once.
    with start_emulator(time_scale=BULK_TIME_SCALE) as em:
        env = environment(em)
        # The demo account's bulk licence starts in 2024-03: the range is narrowed.
        args = ["bulk", "--vertical", "JET", "--start", "2024-02", "--end", "2024-04"]
        result = run_cli([*args, "--dest", str(dest), "--format", "json"], env)
        facts = json.loads(ok(result))
        assert "marketcurves: warning: the service narrowed" in result.stderr
        table = mc.read_bulk(dest)
        files = sorted(str(p) for p in dest.rglob("*.parquet"))
        assert sorted(facts["files"]) == files and len(files) == 2
        assert facts["rows"] == table.num_rows
        assert facts["rows"] == em.bulk_rows("JET", "2024-03") + em.bulk_rows("JET", "2024-04")
        assert facts["bytes"] == sum((dest / f).stat().st_size for f in files)
        assert facts["requested"] == ["2024-02", "2024-04"]
        assert facts["effective"] == ["2024-03", "2024-04"]
        assert facts["narrowed"] is True and facts["jobs"] == 1
        assert isinstance(facts["job_id"], str) and facts["job_id"]
        # Everything is there: a rerun fetches nothing and lists the files.
        again = run_cli([*args, "--dest", str(dest)], env)
    assert sorted(ok(again).splitlines()) == files
    assert "2 files" in again.stderr and " 0 bytes downloaded" in again.stderr


def test_a_dest_where_nothing_can_be_made_is_refused_before_a_job_is_submitted():
    with start_emulator(time_scale=BULK_TIME_SCALE) as em:
        args = ["bulk", "--vertical", "JET", "--start", "2024-03", "--end", "2024-03"]
        result = run_cli([*args, "--dest", "/proc/marketcurves"], environment(em))
        line = one_line_error(result, "InvalidRequest")
        assert "not writable" in line
        assert em.request_count("/bulk-download") == 0


def test_a_month_the_licence_covers_is_one_file_and_no_warning(tmp_path):
    with start_emulator(time_scale=BULK_TIME_SCALE) as em:
        args = ["bulk", "--vertical", "Jet", "--start", "2024-03", "--end", "2024-03"]
        result = run_cli([*args, "--dest", str(tmp_path)], environment(em))
    assert len(ok(result).splitlines()) == 1
    assert "warning" not in result.stderr
    assert result.stderr.startswith("1 file, "), result.stderr
