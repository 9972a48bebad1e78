"""``marketcurves catalogue``: the curves, filtered, in any format."""

from __future__ import annotations

import argparse

from marketcurves._commands import output
from marketcurves._commands._common import VERTICAL, Commands, client, command, plural, say

EXAMPLES = """
  marketcurves catalogue --vertical Jet --quotation Fob
  marketcurves catalogue --region ARA --format json -o ara.json
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
        "properties and contracts (the curve's tenors). The ids and tenors "
        "are what the other commands take as CURVE_ID and TENOR. An unknown "
        "quotation or region is refused with the list of valid ones.",
        EXAMPLES,
    )
    parser.add_argument("--vertical", help=VERTICAL)
    parser.add_argument("--quotation", help="a quotation type, e.g. Fob or 'Freight Rate'")
    parser.add_argument("--region", help="a region, e.g. ARA or 'NORTH SEA'")
    output.add_flags(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = output.chosen(args)
    with client() as service:
        curves = service.catalogue(
            vertical=args.vertical, quotation=args.quotation, region=args.region
        )
    output.write(curves.to_arrow(), fmt, args, brief=BRIEF)
    say(plural(len(curves), "curve"))
    return 0
