"""Fixtures of the object storage suite: moto's S3 on loopback for the
session, a fresh bucket per test, and the two ways of giving marketcurves
its address and credentials (``storage_options`` or the AWS variables),
and a proxy in front of the S3 that injects its faults
(``s3_fault_proxy``).

The machine's AWS settings are removed for the whole session, so that no
test can reach real AWS through them, whatever the machine has configured
(boto3, which would also read ``~/.aws``, is told not to: see
``storage_helpers.s3_client``); ``s3_env`` sets the variables, test by test, for
the emulator only.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from s3_fault_proxy import FaultProxy
from storage_helpers import MotoServer, environment, s3_client, storage_options


@pytest.fixture(autouse=True, scope="session")
def _no_aws_settings_from_the_machine() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.upper().startswith("AWS_"):
                patch.delenv(name)
        yield


@pytest.fixture(autouse=True)
def _a_machine_of_the_tests_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the client remembers on the machine (the licences a shared
    cache confirmed, in the user's cache folder) is the test's alone."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine"))


@pytest.fixture(scope="module")
def emulator_settings() -> dict[str, Any]:
    """A fast clock for the root ``em``: bulk jobs finish at once."""
    return {"time_scale": 500}


@pytest.fixture(scope="session")
def moto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MotoServer]:
    """moto's S3, started once for the session; its log, which tells the
    requests it answered, is in the session's temporary folder."""
    server = MotoServer(tmp_path_factory.mktemp("moto") / "moto.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def _fault_proxy_process(
    moto: MotoServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FaultProxy]:
    proxy = FaultProxy(moto.endpoint, tmp_path_factory.mktemp("proxy") / "proxy.log")
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture
def fault_proxy(_fault_proxy_process: FaultProxy) -> Iterator[FaultProxy]:
    """The fault proxy in front of moto, started once for the session; the
    test's rules are removed (and held requests let go) when it ends."""
    yield _fault_proxy_process
    _fault_proxy_process.clear()


@pytest.fixture
def proxy_options(fault_proxy: FaultProxy) -> dict[str, str]:
    """``storage_options`` that reach moto through the fault proxy."""
    return storage_options(fault_proxy.endpoint)


@pytest.fixture(scope="session")
def moto_server(moto: MotoServer) -> str:
    """The endpoint URL of moto's S3: ``http://127.0.0.1:<port>``."""
    return moto.endpoint


@pytest.fixture(scope="session")
def s3(moto_server: str) -> Any:
    """A boto3 S3 client of the emulator, to arrange and inspect buckets."""
    return s3_client(moto_server)


@pytest.fixture
def bucket(s3: Any) -> str:
    """The name of a new, empty bucket of the test's own."""
    name = f"test-{uuid.uuid4().hex[:16]}"
    s3.create_bucket(Bucket=name)
    return name


@pytest.fixture
def s3_options(moto_server: str) -> dict[str, str]:
    """``storage_options`` for the emulator: endpoint, plain HTTP, credentials, region."""
    return storage_options(moto_server)


@pytest.fixture
def s3_env(moto_server: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The AWS variables set for the emulator, for this test only; returns them."""
    variables = environment(moto_server)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return variables


@pytest.fixture
def empty_dir(tmp_path: Path) -> Path:
    """An existing, empty local folder."""
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder
