"""``import marketcurves`` loads only what every use needs: pandas,
matplotlib and tqdm are imported by the calls that use them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

OPTIONAL = ["pandas", "matplotlib", "tqdm"]


def modules_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after running ``code``."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in json.loads(out.stdout.splitlines()[-1])}


def test_import_loads_no_optional_library():
    loaded = modules_after("import marketcurves")
    assert not loaded & set(OPTIONAL), sorted(loaded & set(OPTIONAL))
    assert "asyncio" not in loaded, "asyncio is loaded by the awaitable calls, not the import"


def test_a_pull_loads_no_optional_library():
    pytest.importorskip("pandas")  # so that there is something not to load
    code = """
import marketcurves as mc
from marketcurves.testing import Emulator
with Emulator(seed=0, time_scale=0, start="2025-06-13T17:00:00Z") as em:
    client = em.client()
    curve = next(c for c in client.catalogue() if c.quotation != "Sales")
    table = client.settlements(curve, "2025-06-02", "2025-06-13", progress=False)
    assert table.num_rows > 0
    mc.curves.rolling(table, nearby=[1])
"""
    loaded = modules_after(code)
    assert "pyarrow" in loaded
    assert not loaded & set(OPTIONAL), sorted(loaded & set(OPTIONAL))


def test_to_pandas_loads_pandas_alone():
    pytest.importorskip("pandas")
    code = """
import pyarrow as pa
import marketcurves as mc
mc.to_pandas(pa.table({"tenor": ["Jan 25"], "price": [1.0]}))
"""
    loaded = modules_after(code)
    assert "pandas" in loaded
    assert not loaded & {"matplotlib", "tqdm"}
