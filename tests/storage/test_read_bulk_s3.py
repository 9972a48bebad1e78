"""read_bulk on object storage (issue 15): an export uploaded to S3 (moto on
loopback) reads as the very table of the local folder it came from, with the
same selections; bad URLs and settings are refused before anything is read,
and no message shows the secret.

Skipped while ``read_bulk`` takes no ``storage_options``: the core that reads
URLs lands apart from these tests.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from storage_helpers import SECRET_ACCESS_KEY, MotoServer, list_keys, upload_folder
from support import BULK_TIME_SCALE, start_emulator

import marketcurves as mc

#: What the export holds: the demo account's bulk licence starts at 2024-03.
JET = {("Jet", 3), ("Jet", 4), ("Jet", 5)}
NAPHTHA = {("Naphtha", 3), ("Naphtha", 4)}
#: A port where nothing listens: a request sent there fails, it is not answered.
NOWHERE = "http://127.0.0.1:9"


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local bulk export of two verticals, downloaded once for the module."""
    folder = tmp_path_factory.mktemp("export")
    with start_emulator(time_scale=BULK_TIME_SCALE) as em, em.client() as client:
        for vertical, start, end in [
            ("JET", "2024-03", "2024-05"),
            ("NAPHTHA", "2024-03", "2024-04"),
        ]:
            client.bulk_download(vertical, start, end, folder, progress=False, poll_interval=0.05)
    return folder


@pytest.fixture(scope="module")
def exported(s3: Any, export: Path) -> str:
    """The export uploaded once under ``exports/`` of a bucket of the module's
    own, for the tests that only read it; its URL, with no trailing slash."""
    name = f"export-{uuid.uuid4().hex[:16]}"
    s3.create_bucket(Bucket=name)
    upload_folder(export, name, "exports", s3=s3)
    return f"s3://{name}/exports"


def partitions(table: pa.Table) -> set[tuple[str, int]]:
    return set(
        zip(table.column("vertical").to_pylist(), table.column("month").to_pylist(), strict=False)
    )


def assert_same(got: pa.Table, expected: pa.Table) -> None:
    assert got.schema == expected.schema
    assert got.num_rows == expected.num_rows
    assert got.equals(expected)


def assert_secret_kept(error: pytest.ExceptionInfo[BaseException]) -> None:
    assert SECRET_ACCESS_KEY not in str(error.value)
    assert SECRET_ACCESS_KEY not in repr(error.value)


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        pytest.param({}, JET | NAPHTHA, id="everything"),
        pytest.param({"vertical": "JET"}, JET, id="vertical"),
        pytest.param({"vertical": "naphtha"}, NAPHTHA, id="vertical-any-spelling"),
        pytest.param({"start": "2024-04"}, {("Jet", 4), ("Jet", 5), ("Naphtha", 4)}, id="start"),
        pytest.param({"end": "2024-03"}, {("Jet", 3), ("Naphtha", 3)}, id="end"),
        pytest.param(
            {"start": "2024-04", "end": "2024-04"}, {("Jet", 4), ("Naphtha", 4)}, id="month"
        ),
        pytest.param(
            {"vertical": "Jet", "start": "2024-04", "end": "2024-05"},
            {("Jet", 4), ("Jet", 5)},
            id="both",
        ),
        pytest.param({"vertical": "Crude"}, set(), id="no-partition"),
        pytest.param({"parse_json": True}, JET | NAPHTHA, id="parse_json"),
        pytest.param(
            {"vertical": "Naphtha", "start": "2024-04", "parse_json": True},
            {("Naphtha", 4)},
            id="parse_json-selected",
        ),
    ],
)
def test_s3_reads_as_the_local_folder(export, exported, s3_options, selection, expected):
    local = mc.read_bulk(export, **selection)
    assert partitions(local) == expected
    assert_same(mc.read_bulk(exported, storage_options=s3_options, **selection), local)


def test_reading_writes_nothing_to_the_bucket(moto: MotoServer, s3, exported, s3_options):
    bucket = exported.removeprefix("s3://").split("/")[0]
    keys = list_keys(bucket, s3=s3)
    before = len(moto.requests())
    assert mc.read_bulk(exported, storage_options=s3_options).num_rows > 0
    sent = moto.requests()[before:]
    assert sent and all(request.startswith(("GET ", "HEAD ")) for request in sent), sent
    assert list_keys(bucket, s3=s3) == keys


def test_a_trailing_slash_reads_the_same(export, exported, s3_options):
    got = mc.read_bulk(exported + "/", storage_options=s3_options)
    assert_same(got, mc.read_bulk(export))


def test_an_export_at_the_bucket_root(s3, bucket, export, s3_options):
    upload_folder(export, bucket, "", s3=s3)
    assert_same(mc.read_bulk(f"s3://{bucket}", storage_options=s3_options), mc.read_bulk(export))


def test_the_aws_variables_instead_of_storage_options(s3_env, export, exported):
    assert_same(mc.read_bulk(exported), mc.read_bulk(export))
    selected = mc.read_bulk(exported, "JET", "2024-04", None, parse_json=True)
    assert_same(selected, mc.read_bulk(export, "JET", "2024-04", None, parse_json=True))


def test_storage_options_win_over_the_aws_variables(
    s3_env, monkeypatch, export, exported, s3_options
):
    monkeypatch.setenv("AWS_ENDPOINT_URL", NOWHERE)
    assert_same(mc.read_bulk(exported, storage_options=s3_options), mc.read_bulk(export))


@pytest.mark.parametrize(
    "selection", [{}, {"vertical": "Jet", "end": "2024-04", "parse_json": True}]
)
def test_a_file_url_reads_the_local_folder(export, selection):
    assert export.as_uri().startswith("file:///")
    assert_same(mc.read_bulk(export.as_uri(), **selection), mc.read_bulk(export, **selection))


# An empty prefix in an existing bucket is an existing empty folder: S3 has no
# folders, so a prefix with no object is all there is of one.


@pytest.mark.parametrize("parse_json", [False, True])
def test_an_empty_prefix_reads_as_an_empty_folder(bucket, s3_options, empty_dir, parse_json):
    empty = mc.read_bulk(empty_dir, parse_json=parse_json)
    assert empty.num_rows == 0 and "vertical" in empty.schema.names
    got = mc.read_bulk(f"s3://{bucket}/exports", storage_options=s3_options, parse_json=parse_json)
    assert_same(got, empty)
    assert_same(
        mc.read_bulk(f"s3://{bucket}", storage_options=s3_options, parse_json=parse_json), empty
    )
    assert_same(mc.read_bulk(empty_dir.as_uri(), parse_json=parse_json), empty)


def test_a_prefix_is_a_whole_folder_name(exported, s3_options, empty_dir):
    # "exports/…" lies beside "export", not under it, as folders do.
    got = mc.read_bulk(exported.removesuffix("s"), storage_options=s3_options)
    assert_same(got, mc.read_bulk(empty_dir))


# Errors. Wrong credentials are not tested: moto takes any credentials.


@pytest.mark.parametrize("url", ["ftp://x/y", "s3://", "s3:///exports", "s3:/bucket/exports"])
def test_an_unknown_scheme_or_a_malformed_url_is_refused_unsent(moto: MotoServer, s3_options, url):
    before = len(moto.requests())
    with pytest.raises(mc.InvalidRequest) as error:
        mc.read_bulk(url, storage_options=s3_options)
    assert url in str(error.value)
    assert_secret_kept(error)
    assert moto.requests()[before:] == []


def test_an_unknown_storage_option_is_refused_unsent(moto: MotoServer, s3_options):
    before = len(moto.requests())
    options = {**s3_options, "aws_no_such_option": "1"}
    with pytest.raises(mc.InvalidRequest, match="aws_no_such_option") as error:
        mc.read_bulk("s3://any-bucket/exports", storage_options=options)
    assert_secret_kept(error)
    assert moto.requests()[before:] == []


def refused_missing_bucket(moto: MotoServer, options: dict[str, str] | None) -> None:
    missing = f"missing-{uuid.uuid4().hex[:16]}"
    before = len(moto.requests())
    with pytest.raises(mc.InvalidRequest, match=missing) as error:
        mc.read_bulk(f"s3://{missing}/exports", storage_options=options)
    assert_secret_kept(error)
    sent = moto.requests()[before:]
    assert sent, "the bucket is looked for on the server"
    assert not [r for r in sent if r.startswith("GET /") and "/exports/" in r], sent


def test_a_missing_bucket_is_named(moto: MotoServer, s3_options):
    refused_missing_bucket(moto, s3_options)


def test_a_missing_bucket_is_named_with_the_variables(moto: MotoServer, s3_env):
    refused_missing_bucket(moto, None)
