"""Bulk download end to end against the emulator, through the public API."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from scripted_bulk import ScriptedBulk
from support import BULK_TIME_SCALE

import marketcurves as mc
from marketcurves.testing import table_schema

FULL = {"email": "full@marketcurves.test", "password": "full-password"}


@pytest.fixture()
def em(fresh_em):
    """An emulator of the test's own: tests speed its clock up and inject faults."""
    return fresh_em


def fast(client: mc.Client, *args, **kwargs):
    """bulk_download polling often: the emulator clock runs fast in these tests."""
    return client.bulk_download(*args, progress=False, poll_interval=0.05, **kwargs)


@pytest.fixture()
def full(em):
    # The emulator's jobs run on its clock: let it run fast so jobs finish.
    em.time_scale = BULK_TIME_SCALE
    return em.client(**FULL)


def parquet_files(dest: Path) -> list[Path]:
    return sorted(p for p in dest.rglob("*.parquet") if not p.name.startswith("."))


def test_download_writes_checked_partitions_and_counts_rows(em, full, tmp_path):
    result = fast(full, "JET", "2025-01", "2025-03", tmp_path)
    assert result.effective == ("2025-01", "2025-03") and not result.narrowed
    dirs = sorted(str(p.parent.relative_to(tmp_path)) for p in result.files)
    assert dirs == [f"vertical=Jet/year=2025/month=0{m}" for m in (1, 2, 3)]
    assert parquet_files(tmp_path) == sorted(result.files)
    expected_rows = sum(em.bulk_rows("Jet", f"2025-0{m}", email=FULL["email"]) for m in (1, 2, 3))
    assert result.rows == expected_rows > 0
    assert result.bytes == sum(p.stat().st_size for p in result.files)
    assert not list(tmp_path.rglob("*.part"))


def test_read_bulk_equals_pyarrow_on_the_same_files(full, tmp_path):
    fast(full, "Jet", "2025-01", "2025-02", tmp_path)
    ours = mc.read_bulk(tmp_path)
    theirs = ds.dataset(tmp_path, format="parquet", partitioning="hive").to_table()
    assert ours.num_rows == theirs.num_rows
    for column in ["id", "generated_on", "tenor_name", "price", "meta_data", "dependencies"]:
        assert (
            ours.column(column).to_pylist()
            == pq.read_table(parquet_files(tmp_path)).column(column).to_pylist()
        )
    assert set(ours.column("vertical").to_pylist()) == {"Jet"}
    assert set(ours.column("month").to_pylist()) == {1, 2}
    only_feb = mc.read_bulk(tmp_path, vertical="JET", start="2025-02", end="2025-02")
    assert set(only_feb.column("month").to_pylist()) == {2}
    assert mc.read_bulk(tmp_path, vertical="Crude").num_rows == 0


def test_a_bulk_table_names_no_curve_and_is_not_named_from_its_record_ids(full, tmp_path):
    # A bulk record's `id` is the record's own (the interface): taken for a
    # curve's, a month of Jet would name one "curve" per row.
    fast(full, "Jet", "2025-01", "2025-01", tmp_path)
    table = mc.read_bulk(tmp_path)
    assert table.num_rows > 1000
    assert b"marketcurves.curves" not in (table.schema.metadata or {})
    with pytest.raises(mc.InvalidRequest, match="curve_id"):
        full.name_curves(table)


def test_narrowed_range_warns_naming_both(em, tmp_path):
    em.time_scale = BULK_TIME_SCALE
    client = em.client()
    with pytest.warns(UserWarning, match=r"2024-01\.\.2024-06.*2024-03\.\.2024-06"):
        job = client.bulk_submit("Jet", "2024-01", "2024-06")
    assert job.narrowed and job.effective == ("2024-03", "2024-06")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = job.wait(poll_interval=0.05).download(tmp_path, progress=False)
    assert result.narrowed and len(result.files) == 4


def test_a_failed_job_is_submitted_again(em, full, tmp_path):
    em.fail_next_job(1)
    result = fast(full, "NAPHTHA", "2025-01", "2025-01", tmp_path)
    assert result.jobs == 2 and len(result.files) == 1


def test_waiting_on_a_failed_job_raises(em, full):
    em.fail_next_job(1)
    job = full.bulk_submit("NAPHTHA", "2025-01", "2025-01")
    with pytest.raises(mc.BulkJobFailed, match="FAILED"):
        job.wait(poll_interval=0.05, timeout=30)


def test_expired_urls_are_reported_by_a_job_and_renewed_by_bulk_download(em, full, tmp_path):
    job = full.bulk_submit("NAPHTHA", "2025-01", "2025-01").wait(poll_interval=0.05)
    em.expire_urls()
    with pytest.raises(mc.BulkJobFailed, match="expired"):
        job.download(tmp_path, progress=False)
    assert not parquet_files(tmp_path)
    result = fast(full, "NAPHTHA", "2025-01", "2025-01", tmp_path)
    assert len(result.files) == 1


def test_a_truncated_transfer_is_resumed(em, full, tmp_path):
    em.truncate_next_download(1)
    result = fast(full, "NAPHTHA", "2025-01", "2025-02", tmp_path)
    assert all(p.stat().st_size > 0 for p in result.files)
    assert pq.read_table(result.files[0]).num_rows > 0
    assert mc.read_bulk(tmp_path).num_rows == result.rows


def test_a_part_left_behind_is_never_spliced_onto_a_file_that_changed(em, full, tmp_path):
    # Every attempt breaks off (the first and its five retries): the download
    # fails and leaves its part, holding most of the file as it was.
    em.truncate_next_download(6)
    with pytest.raises(mc.BulkJobFailed, match="after 6 attempts"):
        fast(full, "FUEL_OIL", "2025-05", "2025-05", tmp_path)
    [part] = tmp_path.rglob(".*.part")
    assert part.stat().st_size > 0 and not parquet_files(tmp_path)

    em.add_curves("FUEL_OIL", 20)
    result = fast(full, "FUEL_OIL", "2025-05", "2025-05", tmp_path)
    [file] = result.files
    assert result.rows == em.bulk_rows("FUEL_OIL", "2025-05", email=FULL["email"])
    assert result.bytes == file.stat().st_size, "sent whole: the part was another version"
    assert pq.read_table(file).num_rows == result.rows
    assert not list(tmp_path.rglob(".*.part"))


def test_a_part_of_the_same_file_is_resumed(em, full, tmp_path):
    em.truncate_next_download(6)
    with pytest.raises(mc.BulkJobFailed):
        fast(full, "FUEL_OIL", "2025-05", "2025-05", tmp_path)
    [part] = tmp_path.rglob(".*.part")
    held = part.stat().st_size

    result = fast(full, "FUEL_OIL", "2025-05", "2025-05", tmp_path)
    [file] = result.files
    assert result.bytes == file.stat().st_size - held
    assert pq.read_table(file).num_rows == result.rows > 0


def test_a_rerun_fetches_only_what_is_missing(full, tmp_path):
    first = fast(full, "NAPHTHA", "2025-01", "2025-03", tmp_path)
    lost = first.files[1]
    size = lost.stat().st_size
    lost.unlink()
    again = fast(full, "NAPHTHA", "2025-01", "2025-03", tmp_path)
    assert again.bytes == size
    assert again.rows == first.rows


def test_a_malicious_path_is_refused_and_nothing_is_written_outside(em, full, tmp_path):
    dest = tmp_path / "dest"
    em.malicious_paths(True)
    with pytest.raises(mc.BulkJobFailed, match="refused bulk path"):
        fast(full, "NAPHTHA", "2025-01", "2025-01", dest)
    assert [p for p in tmp_path.rglob("*") if dest not in p.parents and p != dest] == []
    assert not Path("/etc/x").exists()


def test_a_bad_token_is_an_auth_error(em):
    client = mc.Client(base_url=em.base_url, token="not-a-token")
    with pytest.raises(mc.AuthError, match="403"):
        client.bulk_submit("JET", "2025-01", "2025-02")


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("Coal", "2025-01", "2025-02"), "vertical"),
        (("JET", "2025-1", "2025-02"), "start"),
        (("JET", "2025-01", "25-02"), "end"),
        (("JET", "2025-03", "2025-02"), "after"),
        ((7, "2025-01", "2025-02"), "vertical"),
    ],
)
def test_bad_input_is_refused_before_anything_is_sent(args, match):
    client = mc.Client(base_url="http://127.0.0.1:9/v2", token="t")
    with pytest.raises(mc.InvalidRequest, match=match):
        client.bulk_submit(*args)


def test_a_dest_that_is_a_file_is_refused(tmp_path):
    client = mc.Client(base_url="http://127.0.0.1:9/v2", token="t")
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(mc.InvalidRequest, match="is a file"):
        client.bulk_download("JET", "2025-01", "2025-01", target, progress=False)


def test_read_bulk_can_decode_the_json_columns(full, tmp_path):
    fast(full, "NAPHTHA", "2025-01", "2025-01", tmp_path)
    text = mc.read_bulk(tmp_path)
    typed = mc.read_bulk(tmp_path, parse_json=True)
    rest = table_schema("prices")
    assert typed.schema.field("dependencies").type == rest.field("dependencies").type
    assert typed.schema.field("meta_data").type == rest.field("metadata").type
    row = 7
    meta = json.loads(text.column("meta_data")[row].as_py())
    assert dict(typed.column("meta_data")[row].as_py()) == {k: str(v) for k, v in meta.items()}
    deps = json.loads(text.column("dependencies")[row].as_py())
    decoded = typed.column("dependencies")[row].as_py()
    assert [d["tenor_name"] for d in decoded] == [d.get("tenorName") for d in deps]
    assert [d["value"] for d in decoded] == [d.get("value") for d in deps]


def test_duckdb_reads_what_bulk_download_wrote(full, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    result = fast(full, "NAPHTHA", "2025-01", "2025-02", tmp_path)
    pattern = str(tmp_path / "**" / "*.parquet")
    query = f"select count(*), count(distinct month) from read_parquet('{pattern}', hive_partitioning=true)"
    assert duckdb.connect().execute(query).fetchall() == [(result.rows, 2)]


def test_urls_expiring_mid_download_are_renewed_by_running_the_job_again(em, full, tmp_path):
    # Every first transfer breaks off, and the URLs expire while the transfers
    # are under way (responses take 0.5 s; the progress hook runs every 0.1 s),
    # so resuming meets 403 and the job has to run again.
    em.truncate_next_download(3)
    em.set_latency(0.5)
    expired = []

    def hook(phase: int, done: int, total: int) -> None:
        if phase == 2 and not expired:
            em.expire_urls()
            expired.append(True)

    options = {
        "vertical": "NAPHTHA",
        "start": "2025-01",
        "end": "2025-03",
        "dest": str(tmp_path),
        "poll_interval": 0.05,
        "timeout": 60.0,
        "storage_options": None,
    }
    result = mc._core.bulk_download(full._core, options).wait(hook)
    effective, files, rows, jobs = result.effective, result.files, result.rows, result.jobs
    assert expired and jobs == 2
    assert effective == ("2025-01", "2025-03")
    assert rows == mc.read_bulk(tmp_path).num_rows > 0
    assert sorted(Path(f) for f in files) == parquet_files(tmp_path)


def test_a_400_from_the_service_is_an_invalid_request(full):
    # Months after the emulator's clock: the range is empty once narrowed.
    with pytest.raises(mc.InvalidRequest, match="400"):
        full.bulk_submit("JET", "2026-01", "2026-02")


def test_added_curves_make_bigger_files_that_read_back_equal(em, full, tmp_path):
    before = fast(full, "FUEL_OIL", "2025-05", "2025-05", tmp_path / "before")
    listed = {c.id for c in full.catalogue(vertical="Fuel Oil")}
    em.add_curves("FUEL_OIL", 60)
    added = [c for c in full.catalogue(vertical="Fuel Oil") if c.id not in listed]
    assert len(added) == 60

    after = fast(full, "FUEL_OIL", "2025-05", "2025-05", tmp_path / "after")
    assert after.bytes > 3 * before.bytes
    assert after.rows == em.bulk_rows("FUEL_OIL", "2025-05", email=FULL["email"]) > 3 * before.rows
    ours = mc.read_bulk(tmp_path / "after")
    [file] = after.files
    theirs = pq.read_table(file)
    assert ours.num_rows == theirs.num_rows == after.rows
    for column in theirs.column_names:
        assert ours.column(column).to_pylist() == theirs.column(column).to_pylist(), column

    # An added curve's rows are its settlements, as every curve's are.
    curve = added[-1]
    rows = [
        (row["tenor_name"], row["generated_on"].date(), row["price"])
        for row in ours.to_pylist()
        if json.loads(row["meta_data"])["curveId"] == curve.id
    ]
    assert rows
    tenor, day, price = rows[-1]
    settled = full.settlements(curve.id, day, day, tenor)
    assert settled.column("price").to_pylist() == [price]


def test_a_job_that_lists_no_file_for_some_months_is_warned_of(tmp_path):
    service = ScriptedBulk([])
    try:
        client = mc.Client(base_url=service.base_url, token="t")
        with pytest.warns(UserWarning, match="no file at all for 2025-01, 2025-02"):
            result = fast(client, "JET", "2025-01", "2025-02", tmp_path)
        assert result.months_without_files == ["2025-01", "2025-02"]
        assert (result.files, result.rows) == ((), 0)

        service.files = [("vertical=Jet/year=2025/month=02", parquet_bytes())]
        with pytest.warns(UserWarning, match=r"with no file for 2025-01:"):
            result = fast(client, "JET", "2025-01", "2025-02", tmp_path)
        assert result.months_without_files == ["2025-01"] and result.rows == 3
    finally:
        service.close()


def parquet_bytes() -> bytes:
    """A small Parquet file of three rows."""
    sink = io.BytesIO()
    pq.write_table(pa.table({"id": [1, 2, 3]}), sink)
    return sink.getvalue()
