"""Fixtures for every suite.

The tests talk to emulators and servers on loopback only. A proxy or a
certificate file set in the machine's environment would route or verify
those connections too (in marketcurves, in ``requests`` and in
``websockets`` alike), so the whole session runs without them; the tests of
``tests/network`` set them, test by test, on purpose.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

#: The markers of each place (registered in pyproject.toml): what its tests
#: need, and whether `pytest -m "not slow"` (the core behaviour, in under
#: two minutes) leaves them out.
MARKS_BY_PATH = {
    "tests/docs/": ("docs", "slow"),
    "tests/storage/": ("s3", "slow"),
    "tests/faults/test_matrix.py": ("slow",),
    "tests/live/test_scale.py": ("slow",),
    "tests/record/test_record_scale.py": ("slow",),
    "tests/record/test_record_faults.py": ("slow",),
    "tests/record/test_record_process.py": ("subprocess", "slow"),
    "tests/cli/": ("subprocess",),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(config.rootpath)
    for item in items:
        where = Path(item.fspath).relative_to(root).as_posix()
        for place, marks in MARKS_BY_PATH.items():
            if where.startswith(place):
                for mark in marks:
                    item.add_marker(mark)


#: The variables that choose a proxy or the trusted certificates.
NETWORK_VARIABLES = (
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
)


@pytest.fixture(autouse=True, scope="session")
def _no_network_settings_from_the_machine() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for name in NETWORK_VARIABLES:
            patch.delenv(name, raising=False)
        yield
