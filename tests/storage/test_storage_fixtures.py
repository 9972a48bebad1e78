"""The suite's own fixtures, checked without marketcurves: moto answers,
buckets are fresh, ``upload_folder`` keeps the folder tree, and no AWS
setting of the machine is in sight."""

from __future__ import annotations

import os

import pytest
from botocore.exceptions import ClientError
from storage_helpers import SECRET_ACCESS_KEY, list_keys, upload_folder


def test_the_fixture_uploads_a_folder(s3, bucket, tmp_path):
    tree = {
        "vertical=Jet/year=2024/month=03/jet-2024-03.parquet": b"march",
        "vertical=Jet/year=2024/month=04/jet-2024-04.parquet": b"april",
        ".hidden": b"kept too",
    }
    for name, data in tree.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    keys = upload_folder(tmp_path, bucket, "exports/", s3=s3)
    assert keys == sorted(f"exports/{name}" for name in tree)
    assert list_keys(bucket, s3=s3) == keys
    assert list_keys(bucket, "exports/vertical=Jet/year=2024/month=04/", s3=s3) == [
        "exports/vertical=Jet/year=2024/month=04/jet-2024-04.parquet"
    ]
    body = s3.get_object(Bucket=bucket, Key=keys[-1])["Body"].read()
    assert body == b"april"


def test_an_empty_prefix_uploads_to_the_bucket_root(s3, bucket, tmp_path):
    (tmp_path / "a" / "b.txt").parent.mkdir()
    (tmp_path / "a" / "b.txt").write_bytes(b"x")
    assert upload_folder(tmp_path, bucket, "", s3=s3) == ["a/b.txt"]


def test_the_server_tells_the_requests_it_answered(moto, s3, bucket):
    before = len(moto.requests())
    s3.put_object(Bucket=bucket, Key="k", Body=b"v")
    s3.get_object(Bucket=bucket, Key="k")
    with pytest.raises(ClientError):
        s3.get_object(Bucket=bucket, Key="absent")
    assert moto.requests()[before:] == [
        f"PUT /{bucket}/k",
        f"GET /{bucket}/k",
        f"GET /{bucket}/absent",
    ]


def test_each_test_gets_a_new_empty_bucket(s3, bucket):
    assert list_keys(bucket, s3=s3) == []
    assert bucket in {b["Name"] for b in s3.list_buckets()["Buckets"]}


def test_s3_env_sets_the_variables_for_the_emulator(s3_env, moto_server):
    assert os.environ["AWS_ENDPOINT_URL"] == moto_server.rstrip("/")
    assert os.environ["AWS_SECRET_ACCESS_KEY"] == SECRET_ACCESS_KEY


def test_no_aws_variable_of_the_machine_is_left(s3_options, moto_server):
    assert s3_options["aws_endpoint"] == moto_server
    assert [name for name in os.environ if name.upper().startswith("AWS_")] == []
