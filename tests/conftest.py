"""Fixtures for every suite.

The tests talk to emulators and servers on loopback only. A proxy or a
certificate file set in the machine's environment would route or verify
those connections too (in marketcurves, in ``requests`` and in
``websockets`` alike), so the whole session runs without them; the tests of
``tests/network`` set them, test by test, on purpose.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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
