"""A tour of marketcurves.

Run it with ``bash scripts/quickstart`` (see the README). It grows with the
package: today it shows how tenor names are read and ordered, how a response
of the service becomes an Arrow table, and the service emulator that runs in
this process, queried over plain HTTP.
"""

import json
import random
import urllib.parse
import urllib.request

import marketcurves as mc
from marketcurves.testing import Emulator

# The contracts of a curve, as the catalogue lists them (in no useful order).
CONTRACTS = [
    "Q1 26", "Dec 25", "C 01", "1-5 Dec 25", "26-EOM Nov 25", "Jan 26", "C 00",
    "6-10 Dec 25", "Feb 26", "26-EOM Feb 28", "Q2 26",
]  # fmt: skip

# A day of `/historical/settlements/<curve_id>/<tenor>`, newest first, with
# fractional seconds of varying length, as the service writes them.
SETTLEMENTS = [
    {
        "date": "2025-11-21",
        "value": {
            "generatedOn": "2025-11-21T16:30:00.123456",
            "price": 742.25,
            "units": "$/mt",
            "tenor": "Jan 26",
            "dependencies": [
                {"id": "f-1", "name": "Freight AG-SING", "value": 18.5, "units": "$/mt", "tenorName": "Dec 25"}
            ],
            "metadata": [{"name": "monthName", "value": "January"}],
        },
    },
    {"date": "2025-11-20", "value": {"generatedOn": "2025-11-20T16:30:00.5", "price": 739.0, "tenor": "Jan 26"}},
    {"date": "2025-11-19", "value": {"generatedOn": "2025-11-19T16:30:00", "price": 741.75, "tenor": "Jan 26"}},
]  # fmt: skip


def show_tenors() -> None:
    print(f"marketcurves {mc.__version__}\n")
    shuffled = random.Random(7).sample(CONTRACTS, len(CONTRACTS))
    print("Contracts in calendar order:")
    for tenor in sorted(mc.Tenor.parse(name) for name in shuffled):
        span = f"{tenor.start} .. {tenor.end}" if tenor.start else "-"
        print(f"  {tenor.name:<14} {tenor.kind:<11} {span}")
    try:
        mc.Tenor.parse("Q5 25")
    except mc.InvalidRequest as error:
        print(f"\nA name that cannot exist is refused: {error}")


def show_table() -> None:
    body = json.dumps(SETTLEMENTS).encode()
    table = mc._core.decode_table("settlements", body, "jet-fob-ag", "Jan 26")
    print(f"\nSettlements as an Arrow table ({table.num_rows} rows, oldest first):")
    print(table.select(["tenor", "tenor_kind", "date", "generated_on", "price"]).to_pandas())


def get(emulator: Emulator, path: str, token: str, **params: str) -> bytes:
    query = f"?{urllib.parse.urlencode(params)}" if params else ""
    request = urllib.request.Request(
        f"{emulator.base_url}{path}{query}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def show_emulator() -> None:
    # A stopped clock on a Friday evening, after the London close.
    with Emulator(seed=0, time_scale=0, start="2025-06-13T17:00:00Z") as emulator:
        print(
            f"\nThe emulator serves {emulator.base_url} (clock {emulator.now():%Y-%m-%d %H:%M} UTC)"
        )
        login = json.dumps(emulator.credentials).encode()
        request = urllib.request.Request(
            f"{emulator.base_url}/authenticate",
            data=login,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            token = json.load(response)["token"]
        page = json.loads(get(emulator, "/catalogue", token, **{"filter[vertical]": "Jet"}))
        curve = next(c for c in page["items"] if c["quotation"] == "Fob")
        print(f"{curve['name']} ({curve['units']}), {len(curve['contracts'])} contracts")
        tenor = next(t for t in curve["contracts"] if mc.Tenor.parse(t).kind == "month")
        path = f"/historical/settlements/{curve['id']}/{urllib.parse.quote(tenor)}"
        body = get(emulator, path, token, startDate="2025-06-02", endDate="2025-06-13")
        table = mc._core.decode_table("settlements", body, curve["id"], tenor)
        print(f"Two weeks of {tenor} settlements:")
        print(table.select(["date", "generated_on", "price", "units"]).to_pandas())


if __name__ == "__main__":
    show_tenors()
    show_table()
    show_emulator()
