"""The subcommands of the ``marketcurves`` console script, one module each
(``marketcurves.cli`` puts them together). Each module's ``add`` adds its
parser, whose ``run`` does the work and returns the exit code. They import
what they need when they run, so that ``--help`` and usage errors are quick.
"""

from marketcurves._commands import (
    backfill,
    bulk,
    cache,
    catalogue,
    compact,
    emulator,
    history,
    lake,
    live,
    mcp,
    record,
    replay,
)

#: In the order ``--help`` lists them.
COMMANDS = (
    catalogue,
    history,
    bulk,
    live,
    record,
    backfill,
    lake,
    replay,
    compact,
    cache,
    emulator,
    mcp,
)
