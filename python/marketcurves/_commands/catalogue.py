"""``marketcurves catalogue``: the curves, filtered, in any format."""

from __future__ import annotations

import argparse

from marketcurves._commands import output
from marketcurves._commands._common import Commands, client, command, say

EXAMPLES = """
  marketcurves catalogue --vertical Jet --quotation Fob
  marketcurves catalogue --region Europe --format json -o europe.json
  marketcurves catalogue --vertical Crude --format csv | cut -d, -f1,2
"""

#: The columns of the ``table`` format; the others show in csv, json and parquet.
BRIEF = ("id", "vertical", "quotation", "region", "units", "name")


def add(commands: Commands) -> None:
    parser = command(
        commands,
        "catalogue",
        "list curves (credentials from the environment)",
        "Lists the curves of the catalogue (every page), with the filters "
        "given: id, name, vertical, quotation, region, units, filters, "
        "properties and contracts.",
        EXAMPLES,
    )
    parser.add_argument("--vertical", help="e.g. Jet or JET")
    parser.add_argument("--quotation", help="e.g. Fob")
    parser.add_argument("--region", help="e.g. Europe")
    output.add_flags(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    with client() as service:
        curves = service.catalogue(
            vertical=args.vertical, quotation=args.quotation, region=args.region
        )
    output.write(curves.to_arrow(), fmt, args, brief=BRIEF)
    say(f"{len(curves)} curves")
    return 0
