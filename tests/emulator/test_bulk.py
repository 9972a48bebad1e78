"""Bulk download: job submission and narrowing, job status, the Parquet files
behind the pre-signed URLs, and the bulk fault controls, all over plain HTTP.

Every emulator here starts its stopped clock on Friday 2025-06-13 17:00 UTC, so
the last complete month is 2025-05. Fuel Oil is the vertical of most tests: it
has the fewest curves, so its files are the quickest to build.
"""

from __future__ import annotations

import collections
import datetime as dt
import io
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import duckdb
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
import requests

from marketcurves.exceptions import InvalidRequest
from marketcurves.testing import Emulator

FULL = ("full@marketcurves.test", "full-password")
DEMO_EMAIL = "demo@marketcurves.test"
BROKEN = (requests.exceptions.ChunkedEncodingError, requests.exceptions.ConnectionError)
UTC = dt.UTC

SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("generated_on", pa.timestamp("us", tz="UTC")),
        ("tenor_name", pa.string()),
        ("price", pa.float64()),
        ("meta_data", pa.string()),
        ("dependencies", pa.string()),
        ("time_snapshot", pa.string()),
    ]
)
VERTICALS = {
    "JET": "Jet",
    "NAPHTHA": "Naphtha",
    "ULSD": "ULSD",
    "CRUDE": "Crude",
    "GASOLINE": "Gasoline",
    "FUEL_OIL": "Fuel Oil",
}


class Bulk:
    """The bulk endpoints of one emulator, as one account, with plain requests."""

    def __init__(self, emulator: Emulator, email: str | None = None) -> None:
        self.emulator = emulator
        self.email = email
        self.token = emulator.token(email)

    def headers(self, token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.token}"}

    def submit(
        self,
        start: str = "2025-05",
        end: str = "2025-05",
        vertical: str = "FUEL_OIL",
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> requests.Response:
        return requests.post(
            self.emulator.base_url + "/bulk-download/job-submit",
            params={"startDate": start, "endDate": end, "vertical": vertical},
            headers=self.headers(token) if headers is None else headers,
            timeout=30,
        )

    def submitted(self, start: str = "2025-05", end: str = "2025-05", vertical: str = "FUEL_OIL"):
        response = self.submit(start, end, vertical)
        assert response.status_code == 202, response.text
        return response.json()

    def status(
        self, job_id: str, *, token: str | None = None, headers: dict[str, str] | None = None
    ) -> requests.Response:
        return requests.get(
            self.emulator.base_url + f"/bulk-download/job-status/{job_id}",
            headers=self.headers(token) if headers is None else headers,
            timeout=30,
        )

    def poll(self, job_id: str) -> dict[str, Any]:
        response = self.status(job_id)
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("application/json")
        return response.json()

    def finished(self, job_id: str) -> dict[str, Any]:
        """The status once the job is no longer RUNNING. The clock must be past
        the job's end; building its files takes a little real time."""
        deadline = time.monotonic() + 120
        while True:
            body = self.poll(job_id)
            if body["status"] != "RUNNING":
                return body
            assert time.monotonic() < deadline, "the job never ended"
            time.sleep(0.2)

    def run(self, start: str = "2025-05", end: str = "2025-05", vertical: str = "FUEL_OIL"):
        """Submits a job, moves the clock past its end and returns its final status."""
        job = self.submitted(start, end, vertical)
        self.emulator.advance(600)
        return job, self.finished(job["job_id"])


def download(url: str, **kw: Any) -> requests.Response:
    return requests.get(url, timeout=60, **kw)


def with_query(url: str, **changes: str) -> str:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    query.update(changes)
    return urlunsplit(parts._replace(query=urlencode(query)))


def without_query(url: str, name: str) -> str:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items() if k != name}
    return urlunsplit(parts._replace(query=urlencode(query)))


def table_of(content: bytes) -> pa.Table:
    return pq.read_table(io.BytesIO(content))


# One emulator for the tests that only read: a finished Fuel Oil job of the
# full account (April and May 2025), its files, and a demo job of May.


@pytest.fixture(scope="module")
def bulk_emulator(em):
    return em


@pytest.fixture(scope="module")
def full(bulk_emulator) -> Bulk:
    return Bulk(bulk_emulator, FULL[0])


@pytest.fixture(scope="module")
def demo(bulk_emulator) -> Bulk:
    return Bulk(bulk_emulator)


@pytest.fixture(scope="module")
def full_job(full):
    job, status = full.run("2025-04", "2025-05")
    assert status["status"] == "SUCCEEDED", status
    files = {}
    for entry in status["presigned_urls"]:
        response = download(entry["url"])
        assert response.status_code == 200, response.text
        files[entry["path"]] = response.content
    return job, status, files


@pytest.fixture(scope="module")
def may_table(full_job) -> pa.Table:
    _, _, files = full_job
    return table_of(files["vertical=Fuel Oil/year=2025/month=05"])


@pytest.fixture(scope="module")
def demo_may(demo) -> bytes:
    _, status = demo.run()
    assert status["status"] == "SUCCEEDED", status
    (entry,) = status["presigned_urls"]
    return download(entry["url"]).content


@pytest.fixture(scope="module")
def dest(full_job, tmp_path_factory) -> Path:
    """The full job's files written under their partition paths."""
    _, _, files = full_job
    root = tmp_path_factory.mktemp("bulk")
    for path, content in files.items():
        target = root / path / "part-0.parquet"
        target.parent.mkdir(parents=True)
        target.write_bytes(content)
    return root


# Submission.


def test_submit_answers_202_with_an_opaque_job_id_and_the_effective_range(full):
    response = full.submit("2025-01", "2025-05", "JET")
    assert response.status_code == 202, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"job_id", "date_range"}
    assert isinstance(body["job_id"], str) and body["job_id"]
    assert body["date_range"] == {"effective_start": "2025-01", "effective_end": "2025-05"}
    assert full.submitted("2025-01", "2025-05", "JET")["job_id"] != body["job_id"]


@pytest.mark.parametrize("vertical", sorted(VERTICALS))
def test_every_vertical_of_the_interface_is_accepted(full, vertical):
    assert full.submit("2025-05", "2025-05", vertical).status_code == 202


@pytest.mark.parametrize(
    ("start", "end", "effective"),
    [
        ("2023-01", "2025-05", ("2024-03", "2025-05")),
        ("2024-01", "2024-06", ("2024-03", "2024-06")),
        ("2024-03", "2024-03", ("2024-03", "2024-03")),
        ("2024-06", "2026-12", ("2024-06", "2025-05")),
    ],
)
def test_the_demo_account_is_narrowed_to_its_licence_and_complete_months(
    demo, start, end, effective
):
    body = demo.submitted(start, end)
    assert (body["date_range"]["effective_start"], body["date_range"]["effective_end"]) == effective


@pytest.mark.parametrize(
    ("start", "end", "effective"),
    [
        ("2023-01", "2025-05", ("2023-01", "2025-05")),
        ("2010-02", "2025-09", ("2010-02", "2025-05")),
        ("1999-11", "2000-01", ("2000-01", "2000-01")),
    ],
)
def test_the_full_account_keeps_its_range_up_to_the_last_complete_month(
    full, start, end, effective
):
    body = full.submitted(start, end)
    assert (body["date_range"]["effective_start"], body["date_range"]["effective_end"]) == effective


@pytest.mark.parametrize(
    "query",
    [
        {"startDate": "2025-5"},
        {"startDate": "2025-13"},
        {"startDate": "2025-00"},
        {"startDate": "202505"},
        {"startDate": "2025-05-01"},
        {"startDate": "May 2025"},
        {"startDate": ""},
        {"endDate": "2025/05"},
        {"endDate": "25-05"},
    ],
)
def test_a_month_not_shaped_yyyy_mm_is_400(full, check, query):
    params = {"startDate": "2025-04", "endDate": "2025-05", "vertical": "JET", **query}
    check.error(full.submit(params["startDate"], params["endDate"], params["vertical"]), 400)


@pytest.mark.parametrize("missing", ["startDate", "endDate", "vertical"])
def test_a_missing_parameter_is_400(full, check, missing):
    params = {"startDate": "2025-04", "endDate": "2025-05", "vertical": "JET"}
    del params[missing]
    response = requests.post(
        full.emulator.base_url + "/bulk-download/job-submit",
        params=params,
        headers=full.headers(None),
        timeout=30,
    )
    assert missing in check.error(response, 400)["message"]


@pytest.mark.parametrize(
    "vertical", ["jet", "Jet", "Fuel Oil", "FUEL OIL", "fuel_oil", "KEROSENE", ""]
)
def test_only_the_interface_spellings_of_a_vertical_are_accepted(full, check, vertical):
    check.error(full.submit("2025-04", "2025-05", vertical), 400)


def test_an_end_before_the_start_is_400(full, check):
    check.error(full.submit("2025-05", "2025-04"), 400)


@pytest.mark.parametrize(
    ("start", "end"),
    [("2023-01", "2024-02"), ("2025-06", "2025-09"), ("2026-01", "2026-01")],
)
def test_a_range_empty_after_narrowing_is_400(demo, check, start, end):
    check.error(demo.submit(start, end), 400)


def test_a_range_of_only_the_current_month_is_400_for_the_full_account_too(full, check):
    check.error(full.submit("2025-06", "2025-06"), 400)


def test_an_account_whose_licence_is_revoked_is_refused(emulator, check):
    emulator.revoke_licence()
    check.error(Bulk(emulator).submit(), 403)
    emulator.restore_licence()
    assert Bulk(emulator).submit().status_code == 202


# Authentication: 403, not 401, on the bulk endpoints.


BAD_HEADERS = [
    {},
    {"Authorization": "Bearer not-a-token"},
    {"Authorization": "Bearer a.b.c"},
    {"Authorization": "Basic abc"},
]


@pytest.mark.parametrize("headers", BAD_HEADERS)
def test_submit_without_a_valid_token_is_403(full, check, headers):
    check.error(full.submit(headers=headers), 403)


@pytest.mark.parametrize("headers", BAD_HEADERS)
def test_status_without_a_valid_token_is_403(full, check, headers):
    job_id = full.submitted()["job_id"]
    check.error(full.status(job_id, headers=headers), 403)


def test_an_expired_token_is_403_on_both_endpoints(emulator, check):
    bulk = Bulk(emulator)
    job_id = bulk.submitted()["job_id"]
    emulator.expire_tokens()
    check.error(bulk.submit(), 403)
    check.error(bulk.status(job_id), 403)
    fresh = emulator.token()
    assert bulk.submit(token=fresh).status_code == 202
    assert bulk.status(job_id, token=fresh).status_code == 200


def test_a_token_past_its_twelve_hours_is_403(emulator, check):
    bulk = Bulk(emulator)
    emulator.advance(12 * 3600)
    check.error(bulk.submit(), 403)


# Status.


def test_an_unknown_job_is_404(full, check):
    check.error(full.status("no-such-job"), 404)


def test_another_accounts_job_is_404(full, demo, check):
    job_id = demo.submitted()["job_id"]
    check.error(full.status(job_id), 404)
    assert demo.status(job_id).status_code == 200


def test_a_job_runs_on_the_emulator_clock_then_succeeds(emulator):
    bulk = Bulk(emulator)
    # One month: 2 s + 0.5 s, so it ends at 17:00:03.
    job_id = bulk.submitted()["job_id"]
    assert bulk.poll(job_id) == {"status": "RUNNING"}
    emulator.advance(2)
    assert bulk.poll(job_id) == {"status": "RUNNING"}
    emulator.advance(1)
    body = bulk.finished(job_id)
    assert body["status"] == "SUCCEEDED"
    assert set(body) == {"status", "presigned_urls"}


def test_longer_ranges_run_longer(emulator):
    bulk = Bulk(emulator)
    # Twelve months requested: 2 s + 6 s.
    job_id = bulk.submitted("2024-06", "2025-05")["job_id"]
    emulator.advance(7.5)
    assert bulk.poll(job_id) == {"status": "RUNNING"}


def test_a_succeeded_job_lists_one_file_per_month_with_partition_paths(full_job):
    _, status, files = full_job
    listing = status["presigned_urls"]
    assert [e["path"] for e in listing] == [
        "vertical=Fuel Oil/year=2025/month=04",
        "vertical=Fuel Oil/year=2025/month=05",
    ]
    for entry in listing:
        assert set(entry) == {"url", "path", "size"}
        assert isinstance(entry["size"], int)
        assert entry["size"] == len(files[entry["path"]])
        assert entry["url"].startswith("http://127.0.0.1:")
        assert "/v2/" not in entry["url"]


@pytest.mark.parametrize("vertical", ["JET", "FUEL_OIL", "ULSD"])
def test_paths_use_the_filter_spelling_of_the_vertical(emulator, vertical):
    _, status = Bulk(emulator).run("2025-05", "2025-05", vertical)
    (entry,) = status["presigned_urls"]
    assert entry["path"] == f"vertical={VERTICALS[vertical]}/year=2025/month=05"


def test_the_listing_is_the_same_at_every_poll(full, full_job):
    job, status, _ = full_job
    assert full.poll(job["job_id"]) == status


# The files.


def test_files_are_parquet_with_exactly_the_interface_columns(full_job):
    _, _, files = full_job
    for content in files.values():
        table = table_of(content)
        assert table.schema.remove_metadata() == SCHEMA
        metadata = pq.ParquetFile(io.BytesIO(content)).metadata
        for group in range(metadata.num_row_groups):
            for column in range(metadata.num_columns):
                assert metadata.row_group(group).column(column).compression == "SNAPPY"


def test_files_hold_as_many_rows_as_bulk_rows_says(bulk_emulator, full_job, demo_may):
    _, _, files = full_job
    for month in ("04", "05"):
        table = table_of(files[f"vertical=Fuel Oil/year=2025/month={month}"])
        assert table.num_rows == bulk_emulator.bulk_rows("FUEL_OIL", f"2025-{month}", email=FULL[0])
    demo_rows = table_of(demo_may).num_rows
    assert demo_rows == bulk_emulator.bulk_rows("Fuel Oil", "2025-05")
    assert demo_rows < bulk_emulator.bulk_rows("FUEL_OIL", "2025-05", email=FULL[0])


def test_bulk_rows_checks_its_arguments(bulk_emulator):
    with pytest.raises(InvalidRequest):
        bulk_emulator.bulk_rows("KEROSENE", "2025-05")
    with pytest.raises(InvalidRequest):
        bulk_emulator.bulk_rows("JET", "2025-5")


def test_rows_are_london_snapshots_of_the_month_with_unique_ids(may_table, check):
    rows = may_table.to_pydict()
    assert set(rows["time_snapshot"]) == {"london_snapshot"}
    assert all(check.UUID.match(i) for i in rows["id"])
    assert len(set(rows["id"])) == len(rows["id"])
    days = {t.date() for t in rows["generated_on"]}
    assert days == set(check.weekdays(dt.date(2025, 5, 1), dt.date(2025, 5, 31)))
    # 16:30 London is 15:30 UTC in May.
    assert {t.timetz() for t in rows["generated_on"]} == {dt.time(15, 30, tzinfo=UTC)}
    assert all(check.tenor_kind(t) for t in rows["tenor_name"])


def test_meta_data_and_dependencies_are_json(may_table, catalogue, check):
    by_id = {c["id"]: c for c in catalogue}
    rows = may_table.slice(0, 500).to_pylist()
    for row in rows:
        meta = json.loads(row["meta_data"])
        assert isinstance(meta, dict)
        curve = by_id[meta["curveId"]]
        assert meta["curveName"] == curve["name"]
        assert curve["filters"]["vertical"] == "Fuel Oil"
        assert all(isinstance(v, str) for v in meta.values())
        deps = json.loads(row["dependencies"])
        assert isinstance(deps, list)
        for dep in deps:
            assert set(dep) == {"id", "name", "value", "units", "tenorName"}


def test_every_curve_of_the_vertical_in_the_licence_is_there(may_table, demo_may, catalogue):
    def curves(table):
        return {json.loads(m)["curveId"] for m in table.column("meta_data").to_pylist()}

    fuel_oil = [c for c in catalogue if c["filters"]["vertical"] == "Fuel Oil"]
    assert curves(may_table) == {c["id"] for c in fuel_oil}
    not_sales = {c["id"] for c in fuel_oil if c["quotation"] != "Sales"}
    assert curves(table_of(demo_may)) == not_sales


def settlement_series(api: Any, curve_id: str, tenor: str) -> dict[str, dict[str, Any]]:
    entries = api.settlements(curve_id, tenor, "2025-05-01", "2025-05-31")
    return {e["date"]: e["value"] for e in entries}


def test_rows_equal_the_historical_settlements(may_table, full_api, check):
    groups: dict[tuple[str, str], list[dict[str, Any]]] = collections.defaultdict(list)
    for row in may_table.to_pylist():
        groups[json.loads(row["meta_data"])["curveId"], row["tenor_name"]].append(row)
    keys = sorted(groups)
    kinds = set()
    for curve_id, tenor in keys[:: max(1, len(keys) // 25)]:
        rows = groups[curve_id, tenor]
        series = settlement_series(full_api, curve_id, tenor)
        assert sorted(series) == sorted(r["generated_on"].date().isoformat() for r in rows)
        for row in rows:
            value = series[row["generated_on"].date().isoformat()]
            assert row["price"] == value["price"]
            assert row["generated_on"] == check.parse_generated_on(value["generatedOn"])
            assert json.loads(row["dependencies"]) == value["dependencies"]
            meta = json.loads(row["meta_data"])
            assert {e["name"]: e["value"] for e in value["metadata"]} == {
                k: v for k, v in meta.items() if k not in ("curveId", "curveName")
            }
        kinds.add(check.tenor_kind(tenor))
    assert {"month", "quarter"} <= kinds


def test_a_curve_and_tenor_has_a_row_for_every_settlement_of_the_month(may_table, full_api):
    rows = [r for r in may_table.to_pylist() if r["tenor_name"] == "Jul 25"]
    curve_id = json.loads(rows[0]["meta_data"])["curveId"]
    mine = {
        r["generated_on"].date().isoformat(): r["price"]
        for r in rows
        if json.loads(r["meta_data"])["curveId"] == curve_id
    }
    series = settlement_series(full_api, curve_id, "Jul 25")
    assert mine == {day: value["price"] for day, value in series.items()}
    assert len(mine) == 22


def test_the_same_file_is_served_to_every_job_that_covers_it(full, full_job):
    _, _, files = full_job
    _, again = full.run("2025-05", "2025-05")
    (entry,) = again["presigned_urls"]
    assert download(entry["url"]).content == files[entry["path"]]


# Pre-signed URLs.


def test_downloads_need_no_token_and_send_their_length(full_job):
    _, status, _ = full_job
    entry = status["presigned_urls"][0]
    response = download(entry["url"])
    assert response.status_code == 200
    assert int(response.headers["Content-Length"]) == entry["size"]
    assert response.headers["Accept-Ranges"] == "bytes"


@pytest.mark.parametrize(
    ("header", "first", "last"),
    [
        ("bytes=0-", 0, None),
        ("bytes=1000-", 1000, None),
        ("bytes=4-99", 4, 99),
        ("bytes=-500", -500, None),
    ],
)
def test_range_requests_get_206_and_the_slice(full_job, header, first, last):
    _, status, files = full_job
    entry = status["presigned_urls"][1]
    content, size = files[entry["path"]], entry["size"]
    response = download(entry["url"], headers={"Range": header})
    assert response.status_code == 206, response.text
    start = first if first >= 0 else size + first
    end = size - 1 if last is None else last
    assert response.headers["Content-Range"] == f"bytes {start}-{end}/{size}"
    assert int(response.headers["Content-Length"]) == end - start + 1
    assert response.content == content[start : end + 1]


def test_a_range_past_the_end_is_416(full_job):
    _, status, _ = full_job
    entry = status["presigned_urls"][0]
    response = download(entry["url"], headers={"Range": f"bytes={entry['size']}-"})
    assert response.status_code == 416
    # Not check.error: Python before 3.13 names 416 by its RFC 7233 phrase.
    body = response.json()
    assert body["status"] == 416 and body["message"]
    assert response.headers["Content-Range"] == f"bytes */{entry['size']}"


def test_a_range_beyond_the_end_is_cut_to_the_file(full_job):
    _, status, files = full_job
    entry = status["presigned_urls"][0]
    size = entry["size"]
    response = download(entry["url"], headers={"Range": f"bytes={size - 10}-{size + 10}"})
    assert response.status_code == 206
    assert response.content == files[entry["path"]][-10:]


def test_a_download_in_ranges_reassembles_the_file(full_job):
    _, status, files = full_job
    entry = status["presigned_urls"][1]
    size, step, parts = entry["size"], 300_000, []
    for start in range(0, size, step):
        header = f"bytes={start}-{min(start + step, size) - 1}"
        parts.append(download(entry["url"], headers={"Range": header}).content)
    assert b"".join(parts) == files[entry["path"]]


@pytest.mark.parametrize(
    "tamper",
    [
        lambda url: with_query(url, **{"X-Signature": "0" * 64}),
        lambda url: with_query(
            url, **{"X-Expires": str(int(parse_qs(urlsplit(url).query)["X-Expires"][0]) + 3600)}
        ),
        lambda url: without_query(url, "X-Signature"),
        lambda url: without_query(url, "X-Expires"),
        lambda url: url.replace("-2025-04.parquet", "-2025-05.parquet"),
    ],
)
def test_an_altered_url_is_403(full_job, check, tamper):
    _, status, _ = full_job
    url = status["presigned_urls"][0]["url"]
    assert download(url).status_code == 200
    check.error(download(tamper(url)), 403)


def test_a_url_with_an_authorization_header_is_refused(full_job, check, emulator):
    # As a storage service refuses two authorities at once: a client that
    # sends its bearer token to a pre-signed URL fails.
    _, status, _ = full_job
    url = status["presigned_urls"][0]["url"]
    bearer = {"Authorization": f"Bearer {emulator.token()}"}
    check.error(download(url, headers=bearer), 400)
    assert download(url).status_code == 200


def test_urls_expire_an_hour_after_the_job_succeeded(emulator, check):
    bulk = Bulk(emulator)
    job = bulk.submitted()
    emulator.advance(3)  # the job ends at 17:00:03
    status = bulk.finished(job["job_id"])
    url = status["presigned_urls"][0]["url"]
    expires = int(parse_qs(urlsplit(url).query)["X-Expires"][0])
    assert expires == int(dt.datetime(2025, 6, 13, 18, 0, 3, tzinfo=UTC).timestamp())
    emulator.advance(3599)
    assert download(url).status_code == 200
    emulator.advance(1)
    check.error(download(url), 403)
    emulator.advance(3601)
    check.error(download(url), 403)
    assert bulk.poll(job["job_id"])["presigned_urls"][0]["url"] == url


def test_expire_urls_ends_every_url_issued_so_far(emulator, check):
    bulk = Bulk(emulator)
    _, first = bulk.run()
    url = first["presigned_urls"][0]["url"]
    assert download(url).status_code == 200
    emulator.expire_urls()
    check.error(download(url), 403)
    check.error(download(url, headers={"Range": "bytes=0-9"}), 403)
    _, second = bulk.run()
    assert download(second["presigned_urls"][0]["url"]).status_code == 200


# Faults.


def test_fail_next_job_makes_jobs_end_failed(emulator):
    bulk = Bulk(emulator)
    emulator.fail_next_job(2)
    failing = [bulk.submitted()["job_id"] for _ in range(2)]
    fine = bulk.submitted()["job_id"]
    assert bulk.poll(failing[0]) == {"status": "RUNNING"}
    emulator.advance(600)
    for job_id in failing:
        assert bulk.poll(job_id) == {"status": "FAILED"}
    assert bulk.finished(fine)["status"] == "SUCCEEDED"


def test_truncate_next_download_breaks_one_download(emulator):
    bulk = Bulk(emulator)
    _, status = bulk.run()
    entry = status["presigned_urls"][0]
    emulator.truncate_next_download()
    with pytest.raises(BROKEN):
        download(entry["url"])
    whole = download(entry["url"])
    assert whole.status_code == 200 and len(whole.content) == entry["size"]


def test_a_truncated_download_declares_the_full_length(emulator):
    bulk = Bulk(emulator)
    _, status = bulk.run()
    entry = status["presigned_urls"][0]
    emulator.truncate_next_download()
    received = b""
    with download(entry["url"], stream=True) as response:
        assert int(response.headers["Content-Length"]) == entry["size"]
        with pytest.raises(BROKEN):
            for chunk in response.iter_content(65536):
                received += chunk
    assert 0 < len(received) < entry["size"]


def test_clear_faults_drops_pending_bulk_faults(emulator):
    bulk = Bulk(emulator)
    emulator.fail_next_job()
    emulator.truncate_next_download()
    emulator.malicious_paths(True)
    emulator.clear_faults()
    _, status = bulk.run()
    assert status["status"] == "SUCCEEDED"
    assert len(status["presigned_urls"]) == 1
    assert download(status["presigned_urls"][0]["url"]).status_code == 200


def test_malicious_paths_lists_escaping_paths_with_working_urls(emulator):
    bulk = Bulk(emulator)
    emulator.malicious_paths(True)
    _, status = bulk.run("2025-04", "2025-05")
    paths = [e["path"] for e in status["presigned_urls"]]
    assert paths[:2] == [
        "vertical=Fuel Oil/year=2025/month=04",
        "vertical=Fuel Oil/year=2025/month=05",
    ]
    assert set(paths[2:]) == {"../../x", "/etc/x"}
    for entry in status["presigned_urls"][2:]:
        response = download(entry["url"])
        assert response.status_code == 200
        assert len(response.content) == entry["size"]
        assert table_of(response.content).schema.remove_metadata() == SCHEMA
    emulator.malicious_paths(False)
    _, clean = bulk.run("2025-04", "2025-05")
    assert [e["path"] for e in clean["presigned_urls"]] == paths[:2]


# The files together, as a partitioned dataset.


def test_pyarrow_reads_the_files_as_a_hive_partitioned_dataset(dest, full_job, bulk_emulator):
    dataset = pads.dataset(dest, format="parquet", partitioning="hive")
    table = dataset.to_table()
    assert table.schema.names == [*SCHEMA.names, "vertical", "year", "month"]
    expected = sum(
        bulk_emulator.bulk_rows("FUEL_OIL", f"2025-{m:02}", email=FULL[0]) for m in (4, 5)
    )
    assert table.num_rows == expected
    assert set(table.column("vertical").to_pylist()) == {"Fuel Oil"}
    may = dataset.to_table(filter=(pads.field("year") == 2025) & (pads.field("month") == 5))
    assert may.num_rows == bulk_emulator.bulk_rows("FUEL_OIL", "2025-05", email=FULL[0])
    assert {t.month for t in may.column("generated_on").to_pylist()} == {5}


def test_duckdb_reads_the_files_with_hive_partitioning(dest, bulk_emulator):
    glob = (dest / "**" / "*.parquet").as_posix()
    connection = duckdb.connect()
    try:
        rows = connection.execute(
            # DuckDB keeps `04` a string (its leading zero would be lost as a number).
            "SELECT vertical, year, CAST(month AS INTEGER) AS month, count(*), "
            "count(DISTINCT id), min(time_snapshot) "
            "FROM read_parquet(?, hive_partitioning = true) "
            "GROUP BY ALL ORDER BY year, month",
            [glob],
        ).fetchall()
    finally:
        connection.close()
    expected = [bulk_emulator.bulk_rows("FUEL_OIL", f"2025-{m:02}", email=FULL[0]) for m in (4, 5)]
    assert rows == [
        ("Fuel Oil", 2025, 4, expected[0], expected[0], "london_snapshot"),
        ("Fuel Oil", 2025, 5, expected[1], expected[1], "london_snapshot"),
    ]
