"""The desk's assistant: ``marketcurves mcp``, a Model Context Protocol
server over the package (the ``marketcurves[mcp]`` extra).

One idea a module: ``schemas`` (the tools as a client sees them),
``inputs`` (arguments checked, names matched), ``catalog`` (the curves the
tools resolve), ``budget`` (each call's requests planned before any is
sent), ``tools`` (the six read-only tools, every number from the library),
``tables`` (rows inline up to ``--max-rows``, else a summary),
``results`` (the whole tables as private Parquet files, MCP resources),
``redact`` (what must never be shown), ``server`` (the protocol's handlers)
and ``transport`` (stdio, or streamable HTTP behind a bearer token).
See docs/agents.md.
"""
