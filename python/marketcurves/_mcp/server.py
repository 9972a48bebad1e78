"""The protocol's handlers (the SDK's low-level ``Server``): the tools and
their schemas, each call checked, run in a worker thread within
``--timeout`` and turned into a result or a tool error (the server never
dies of a call), and the saved results as resources. Everything that
leaves passes through the redactor."""

from __future__ import annotations

import base64
import logging
import time
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

from marketcurves import __version__
from marketcurves._mcp.inputs import checked
from marketcurves._mcp.problems import ToolProblem, unknown
from marketcurves._mcp.redact import Redactor
from marketcurves._mcp.schemas import TOOLS
from marketcurves._mcp.tools import Desk
from marketcurves.exceptions import MarketCurvesError

log = logging.getLogger("marketcurves.mcp")

INSTRUCTIONS = (
    "Market curve data: find a curve (find_curves), see its contracts (describe_curve), then "
    "ask for its forward curve, price history, spreads or a daily curve. Numbers are the "
    "marketcurves library's own; each call is refused above the server's request budget, "
    "and long tables come back summarized with the whole table as a Parquet resource."
)
_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True
)


def make_server(desk: Desk, redactor: Redactor, timeout: float) -> Server[Any]:
    tools = [
        types.Tool(
            name=name,
            description=spec["description"],
            input_schema=spec["input"],
            output_schema=spec["output"],
            annotations=_READ_ONLY,
        )
        for name, spec in TOOLS.items()
    ]

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        began = time.monotonic()
        try:
            if params.name not in TOOLS:
                raise unknown("tool", params.name, TOOLS)
            arguments = checked(TOOLS[params.name]["input"], params.arguments)
            with anyio.fail_after(timeout):
                out, text = await anyio.to_thread.run_sync(
                    desk.call, params.name, arguments, abandon_on_cancel=True
                )
        except TimeoutError:
            message = (
                f"no answer within {timeout:g} s (--timeout): the service is slow or "
                "unreachable; try again later, or narrow the call"
            )
        except ToolProblem as problem:
            message = str(problem)
        except MarketCurvesError as error:
            message = f"{type(error).__name__}: {error}"
        except Exception as error:  # the server outlives any call
            log.warning("%s failed: %s: %s", params.name, type(error).__name__, error)
            message = f"internal error ({type(error).__name__}): {error}"
        else:
            seconds = time.monotonic() - began
            log.info("%s: %s (%.2f s)", params.name, redactor.text(text)[:200], seconds)
            return types.CallToolResult(
                content=[types.TextContent(text=redactor.text(text))],
                structured_content=redactor.value(out),
            )
        message = redactor.text(message)
        log.info("%s refused: %s", params.name, message)
        return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=saved.uri,
                    name=saved.name,
                    description=f"{saved.description}: {saved.rows} rows (Parquet)",
                    mime_type="application/vnd.apache.parquet",
                    size=saved.size,
                )
                for saved in desk.results.listed()
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        try:
            data = desk.results.read(str(params.uri))
        except KeyError as missing:
            raise MCPError(INVALID_PARAMS, redactor.text(str(missing.args[0]))) from None
        blob = base64.b64encode(data).decode("ascii")
        contents = types.BlobResourceContents(
            uri=str(params.uri), mime_type="application/vnd.apache.parquet", blob=blob
        )
        return types.ReadResourceResult(contents=[contents])

    return Server(
        "marketcurves",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
