"""The MCP server's cost over the library's own call for the same question.

* **Latency**, on a warm history cache: a tool call made through the SDK's
  client over stdio (``marketcurves mcp`` as a subprocess), against the
  library's own call answering the same question through the same cache
  in this process. Target: at most 1.2 times (median of ``--repeats``).
  Printed beside it: the protocol's own round trip, a ping over the same
  stdio, and the ratio less it.
* **Requests** ``price_history`` sends for a year of one tenor's
  settlements: cold (an empty cache) and warm (the same call again).

Against one emulator on a stopped clock. Run it on an optimised build:

    maturin build --profile release-fast -o dist && pip install dist/*.whl
    python benches/mcp.py
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This script's folder comes first on sys.path, and its name is the SDK's:
# without it there, `import mcp` finds the SDK, not this file.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

import marketcurves as mc  # noqa: E402
from marketcurves.testing import Emulator  # noqa: E402

START = "2025-06-13T17:00:00Z"
JET = "Jet Fob AG"
YEAR = ("2024-06-13", "2025-06-12")
DAY = "2025-06-12"


def median_seconds(run: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


async def measure(em: Emulator, cache: str, repeats: int) -> None:
    env = {
        "MARKETCURVES_BASE_URL": em.base_url,
        "MARKETCURVES_TOKEN": em.token(),
        "MARKETCURVES_CACHE_DIR": cache,
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "marketcurves", "mcp"], env=env
    )
    history = {"curve": JET, "start": YEAR[0], "end": YEAR[1], "tenors": ["Jul 25"]}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("describe_curve", {"curve": JET})  # the catalogue, kept
        before = em.request_count()
        cold = await session.call_tool("price_history", history)
        cold_requests = em.request_count() - before
        before = em.request_count()
        await session.call_tool("price_history", history)
        warm_requests = em.request_count() - before
        rows = cold.structured_content["row_count"]
        print(
            f"price_history, a year of one tenor ({rows} settlements): {cold_requests} requests cold, {warm_requests} warm"
        )

        pings = []
        for _ in range(repeats):
            began = time.perf_counter()
            await session.send_ping()
            pings.append(time.perf_counter() - began)
        floor_s = statistics.median(pings)
        print(f"the protocol's own round trip (a ping over stdio): {floor_s * 1000:.2f} ms")

        with em.client(cache_dir=cache) as client:
            curve = next(c for c in client.catalogue() if c.name == JET)
            months = [t for t in curve.contracts if mc.Tenor.parse(t, strict=False).kind == "month"]
            questions = [
                (
                    "price_history, a year of one tenor",
                    "price_history",
                    history,
                    lambda: client.settlements(curve, *YEAR, ["Jul 25"]),
                ),
                (
                    "forward_curve on a date",
                    "forward_curve",
                    {"curve": JET, "date": DAY},
                    lambda: client.settlements(curve, DAY, DAY, months),
                ),
            ]
            for title, tool, args, library in questions:
                library()  # warm: every day cached, the catalogue kept
                await session.call_tool(tool, args)
                tool_times = []
                for _ in range(repeats):
                    began = time.perf_counter()
                    result = await session.call_tool(tool, args)
                    tool_times.append(time.perf_counter() - began)
                    assert not result.is_error, result.content[0].text
                tool_s = statistics.median(tool_times)
                library_s = median_seconds(library, repeats)
                print(
                    f"{title}: tool {tool_s * 1000:.2f} ms, library {library_s * 1000:.2f} ms: "
                    f"{tool_s / library_s:.2f}x (target <= 1.2); less the ping: "
                    f"{(tool_s - floor_s) / library_s:.2f}x"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    with Emulator(seed=0, time_scale=0, start=START) as em, tempfile.TemporaryDirectory() as cache:
        asyncio.run(measure(em, cache, args.repeats))


if __name__ == "__main__":
    main()
