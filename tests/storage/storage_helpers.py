"""Helpers of the object storage suite: an S3 emulator (moto) on loopback,
the settings that point marketcurves and boto3 at it, and uploads.

The emulator runs in a process of its own, so that its Python threads never
wait on the test's interpreter lock (nor the test on theirs) and its imports
never meet pytest's ``filterwarnings = error``. It listens on a port the
system picks (``port=0``) and prints it, so two sessions never race for one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

#: The credentials of the emulator: moto takes any, so these are dummies.
#: boto3 (which makes buckets and uploads) uses the customary ones;
#: marketcurves gets a secret no message has any reason to contain, so that
#: tests can check that errors never show it.
BOTO_KEY_ID = "testing"
BOTO_SECRET = "testing"
ACCESS_KEY_ID = "AKIAMARKETCURVESTEST"
SECRET_ACCESS_KEY = "s3cr3t-Never-Printed-7f4e2a"
REGION = "us-east-1"

#: Started in the emulator's process: it prints its port, then serves until
#: its standard input is closed by the session.
_SERVE = """
import sys
from moto.server import ThreadedMotoServer
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
"""


#: A request in the server's log: ``… "GET /bucket/key HTTP/1.1" 200 -``,
#: the request coloured (an ANSI escape after the quote) when its status is
#: not a success.
_REQUEST = re.compile(
    r'"(?:\x1b\[[0-9;]*m)?(GET|HEAD|PUT|POST|DELETE|PATCH|OPTIONS) (\S+) HTTP/[0-9.]+'
)


class ChildServer:
    """A server in a child process that prints the port it listens on, then
    serves until its standard input is closed; ``endpoint`` is its URL and
    what it writes to stderr goes to ``log``."""

    def __init__(self, argv: list[str], log: Path, name: str) -> None:
        self._log: IO[bytes] = log.open("wb")
        self._log_path = log
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True
        )
        try:
            assert self._process.stdout is not None
            line = self._process.stdout.readline().strip()
            if not line.isdigit():
                raise RuntimeError(f"{name} did not start: {self._log_text()}")
            self.endpoint = f"http://127.0.0.1:{int(line)}"
        except BaseException:
            self.stop()
            raise

    def _log_text(self) -> str:
        self._log.flush()
        return self._log_path.read_text(errors="replace")[-2000:]

    def stop(self) -> None:
        """Closes its input, which stops it; kills it if it lingers."""
        if self._process.stdin is not None and not self._process.stdin.closed:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._log.close()


class MotoServer(ChildServer):
    """moto's S3 on loopback in a child process; ``endpoint`` is its URL."""

    def __init__(self, log: Path, timeout: float = 30.0) -> None:
        super().__init__([sys.executable, "-c", _SERVE], log, "moto")
        try:
            self._wait_until_it_answers(timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_until_it_answers(self, timeout: float) -> None:
        # No proxy: the machine's settings must not route a loopback request.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + timeout
        while True:
            try:
                opener.open(f"{self.endpoint}/moto-api/", timeout=1).close()
                return
            except urllib.error.HTTPError:
                return  # any answer at all means it serves
            except OSError:
                if time.monotonic() > deadline or self._process.poll() is not None:
                    raise RuntimeError(f"moto does not answer: {self._log_text()}") from None
                time.sleep(0.05)

    def requests(self) -> list[str]:
        """The requests it has answered so far (``"GET /bucket?list-type=2"``…),
        read from its log, where the server writes each before its answer's body."""
        self._log.flush()
        found = _REQUEST.findall(self._log_path.read_text(errors="replace"))
        return [f"{verb} {target}" for verb, target in found if not target.startswith("/moto-api/")]


def s3_client(endpoint: str) -> Any:
    """A boto3 S3 client of the emulator at ``endpoint``, which reads no
    profile, configuration or credentials file of the machine."""
    import boto3
    import botocore.session
    from botocore.config import Config

    core = botocore.session.Session()
    core.set_config_variable("config_file", os.devnull)
    core.set_config_variable("credentials_file", os.devnull)
    return boto3.session.Session(botocore_session=core).client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=BOTO_KEY_ID,
        aws_secret_access_key=BOTO_SECRET,
        region_name=REGION,
        config=Config(proxies={}, retries={"max_attempts": 1}),
    )


def storage_options(endpoint: str) -> dict[str, str]:
    """The ``storage_options`` of ``read_bulk`` for the emulator (object_store's keys)."""
    return {
        "aws_endpoint": endpoint,
        "aws_allow_http": "true",
        "aws_access_key_id": ACCESS_KEY_ID,
        "aws_secret_access_key": SECRET_ACCESS_KEY,
        "aws_region": REGION,
    }


def environment(endpoint: str) -> dict[str, str]:
    """The same settings as the standard AWS environment variables."""
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ALLOW_HTTP": "true",
        "AWS_ACCESS_KEY_ID": ACCESS_KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET_ACCESS_KEY,
        "AWS_REGION": REGION,
    }


def upload_folder(local_dir: Path, bucket: str, prefix: str, *, s3: Any) -> list[str]:
    """Uploads every file under ``local_dir`` to ``bucket`` as
    ``prefix/<its path below local_dir>`` (``/`` between parts; no prefix for
    ""), hidden files included, as a sync tool would; returns the keys, sorted."""
    keys = []
    for path in sorted(p for p in Path(local_dir).rglob("*") if p.is_file()):
        parts = [prefix.strip("/"), *path.relative_to(local_dir).parts]
        key = "/".join(part for part in parts if part)
        s3.upload_file(os.fspath(path), bucket, key)
        keys.append(key)
    return keys


def list_keys(bucket: str, prefix: str = "", *, s3: Any) -> list[str]:
    """Every key of ``bucket`` under ``prefix``, sorted."""
    keys = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        keys.extend(item["Key"] for item in page.get("Contents", []))
    return sorted(keys)


def open_uploads(bucket: str, *, s3: Any) -> list[str]:
    """The keys of the multipart uploads begun in ``bucket`` and neither
    completed nor aborted, sorted."""
    uploads = s3.list_multipart_uploads(Bucket=bucket).get("Uploads", [])
    return sorted(upload["Key"] for upload in uploads)
