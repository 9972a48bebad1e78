"""GET /catalogue: the page envelope, the curve quotations and the filters."""

import datetime as dt

import pytest

# The interface's tables: quotation and region values by vertical.
QUOTATIONS = {
    "Gasoline": [
        "Ara Ref Margin by load",
        "Blender Margin by load",
        "Delivered price by load",
        "Freight Costs",
        "Freight Rate",
        "Price",
        "Sales",
    ],
    "ULSD": [
        "Delivered price by load",
        "Fob",
        "Freight Costs",
        "Freight Rate",
        "Margin by load",
        "Sales",
    ],
    "Jet": [
        "Delivered price by load",
        "Fob",
        "Freight Costs",
        "Freight Rate",
        "Margin by load",
        "Sales",
    ],
    "Naphtha": [
        "Delivered price by load",
        "Fob",
        "Freight Costs",
        "Freight Rate",
        "Margin by load",
        "Sales",
    ],
    "Crude": [
        "Delivered Outright Price",
        "Delivered price by load",
        "Fob",
        "Freight Costs",
        "Freight Rate",
        "GPW Complex Setup",
        "GPW Medium Setup",
        "GPW Simple Setup",
        "Ref Margin Complex by load",
        "Ref Margin Medium by load",
        "Ref Margin simple by load",
    ],
    "Fuel Oil": ["Blend", "Margin", "Price", "Sales"],
}
REGIONS = {
    "Gasoline": ["AG", "ARA", "HOU", "HOU Bld", "HOU Ref", "SING", "WAF", "WCI"],
    "ULSD": ["AG", "FAR EAST", "Med", "RED SEA", "SOUTH EAST ASIA", "USGC"],
    "Jet": ["AG", "FAR EAST", "RED SEA", "SOUTH EAST ASIA", "USGC", "WCI"],
    "Naphtha": ["AG", "Med", "NWE", "USGC", "WAF"],
    "Crude": ["AG", "LATAM", "NORTH SEA", "WAF", "WCMEX"],
    "Fuel Oil": ["ARA", "FUJ", "MED", "SING", "USGC"],
}
ALL_QUOTATIONS = sorted({q for qs in QUOTATIONS.values() for q in qs})
ALL_REGIONS = sorted({r for rs in REGIONS.values() for r in rs})
UNITS = {"$/mt", "$/bbl", "c/gal"}
FILTER_KEYS = {
    "region",
    "vessel",
    "loadPort",
    "vertical",
    "productType",
    "dischargePort",
    "quotation",
    "grade",
}


def same(a, b):
    return a.casefold() == b.casefold()


def catalogue_url(api):
    return api.base_url + "/catalogue"


# The envelope and paging.


def test_first_page_has_the_default_size_and_absolute_links(api, check):
    body = api.ok("/catalogue")
    check.envelope(body, catalogue_url(api))
    assert len(body["items"]) == 50
    assert body["prev"] is None
    assert check.query_of(body["self"]) == {"page": ["1"], "pageSize": ["50"]}
    assert check.query_of(body["next"]) == {"page": ["2"], "pageSize": ["50"]}
    assert check.query_of(body["last"]) == {"page": ["5"], "pageSize": ["50"]}


def test_following_next_visits_every_curve_exactly_once(api, check):
    bodies = api.pages("/catalogue")
    assert len(bodies) == 5
    for number, body in enumerate(bodies, start=1):
        check.envelope(body, catalogue_url(api))
        assert check.page_number(body["self"]) == number
        assert body["last"] == bodies[0]["last"]
        if number > 1:
            assert body["prev"] == bodies[number - 2]["self"]
    assert [len(b["items"]) for b in bodies] == [50, 50, 50, 50, 33]
    assert bodies[-1]["next"] is None
    assert bodies[-1]["self"] == bodies[0]["last"]
    ids = [item["id"] for body in bodies for item in body["items"]]
    assert len(ids) == 233
    assert len(set(ids)) == 233


def test_paging_over_small_pages_gives_the_same_curves_in_the_same_order(api, catalogue):
    bodies = api.pages("/catalogue", {"pageSize": 40})
    assert len(bodies) == 6
    assert [i["id"] for b in bodies for i in b["items"]] == [c["id"] for c in catalogue]


def test_the_last_link_leads_to_the_last_page(api, check):
    first = api.ok("/catalogue", {"pageSize": 100})
    last = api.ok(first["last"])
    check.envelope(last, catalogue_url(api))
    assert check.page_number(last["self"]) == 3
    assert len(last["items"]) == 33
    assert last["next"] is None
    assert check.page_number(last["prev"]) == 2


@pytest.mark.parametrize("size", [1, 500])
def test_page_sizes_from_one_to_five_hundred_are_accepted(api, check, size):
    body = api.ok("/catalogue", {"pageSize": size})
    assert len(body["items"]) == min(size, 233)
    assert check.query_of(body["self"])["pageSize"] == [str(size)]
    assert check.page_number(body["last"]) == -(-233 // size)
    assert (body["next"] is None) == (size >= 233)


@pytest.mark.parametrize(
    "query",
    [
        {"pageSize": 0},
        {"pageSize": -1},
        {"pageSize": 501},
        {"pageSize": "x"},
        {"pageSize": ""},
        {"pageSize": 2.5},
        {"page": 0},
        {"page": -1},
        {"page": "x"},
    ],
    ids=repr,
)
def test_bad_paging_is_400(api, check, query):
    check.error(api.get("/catalogue", query), 400)


def test_links_carry_the_other_query_parameters(api, check):
    query = {"filter[vertical]": "Crude", "filter[region]": "WAF", "pageSize": 3}
    bodies = api.pages("/catalogue", query)
    assert len(bodies) == 4
    for body in bodies:
        check.envelope(body, catalogue_url(api))
        for key in ("self", "next", "prev", "last"):
            if body[key] is not None:
                params = check.query_of(body[key])
                assert params["filter[vertical]"] == ["Crude"], body[key]
                assert params["filter[region]"] == ["WAF"], body[key]
                assert params["pageSize"] == ["3"], body[key]
    items = [i for b in bodies for i in b["items"]]
    assert len(items) == 11
    assert all(i["filters"]["vertical"] == "Crude" for i in items)
    assert all(i["filters"]["region"] == "WAF" for i in items)


# The curve quotations.


def test_there_are_233_curves_over_the_six_verticals(catalogue):
    assert len(catalogue) == 233
    assert {c["filters"]["vertical"] for c in catalogue} == set(QUOTATIONS)


def test_every_curve_has_the_fields_of_the_interface(catalogue, check):
    for curve in catalogue:
        assert set(curve) == {
            "id",
            "name",
            "quotation",
            "units",
            "filters",
            "properties",
            "contracts",
        }, curve.keys()
        assert check.UUID.match(curve["id"]), curve["id"]
        assert isinstance(curve["name"], str) and curve["name"].strip()
        assert curve["units"] in UNITS, curve
        for mapping in ("filters", "properties"):
            assert isinstance(curve[mapping], dict)
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in curve[mapping].items())
        filters = curve["filters"]
        assert {"vertical", "quotation", "region"} <= set(filters), filters
        assert filters["quotation"] == curve["quotation"]
        assert filters["quotation"] in QUOTATIONS[filters["vertical"]], curve
        assert filters["region"] in REGIONS[filters["vertical"]], curve
        assert isinstance(curve["contracts"], list) and curve["contracts"], curve
        assert len(set(curve["contracts"])) == len(curve["contracts"]), curve["contracts"]


def test_curves_use_the_filter_keys_the_interface_names_and_some_custom_ones(catalogue):
    keys = {k for c in catalogue for k in c["filters"]}
    assert keys <= FILTER_KEYS, keys - FILTER_KEYS
    assert any("grade" in c["filters"] for c in catalogue)
    assert any("loadPort" in c["filters"] for c in catalogue)
    assert any("grade" not in c["filters"] for c in catalogue)


def test_every_contract_has_a_tenor_shape_of_the_interface(catalogue, check):
    kinds = set()
    for curve in catalogue:
        for name in curve["contracts"]:
            kind = check.tenor_kind(name)
            assert kind is not None, (curve["id"], name)
            kinds.add(kind)
    assert kinds == {"month", "quarter", "window", "continuous"}
    assert any("1-5 Jul 25" in c["contracts"] for c in catalogue)
    assert any("26-EOM Jul 25" in c["contracts"] for c in catalogue)
    assert any("Q3 25" in c["contracts"] for c in catalogue)
    assert any("C 00" in c["contracts"] for c in catalogue)
    assert any("C 00" not in c["contracts"] for c in catalogue)


def test_contracts_start_from_the_current_period(catalogue, check):
    today = check.TODAY
    for curve in catalogue:
        months = [n for n in curve["contracts"] if check.tenor_kind(n) == "month"]
        assert "Jun 25" in months, curve["contracts"]
        for name in curve["contracts"]:
            period = check.tenor_period(name)
            if period is not None:
                assert period[1] >= today, (curve["id"], name)
        for name in months:
            assert check.tenor_period(name)[0] >= dt.date(2025, 6, 1), name
        continuous = [n for n in curve["contracts"] if check.tenor_kind(n) == "continuous"]
        assert continuous in ([], ["C 00", "C 01", "C 02"]), continuous


def test_windows_cover_the_current_month_from_the_current_window(catalogue):
    with_windows = [c for c in catalogue if "26-EOM Jul 25" in c["contracts"]]
    assert with_windows
    for curve in with_windows:
        assert "11-15 Jun 25" in curve["contracts"]
        assert "6-10 Jun 25" not in curve["contracts"]
        assert "1-5 Jun 25" not in curve["contracts"]


# Filters.


@pytest.mark.parametrize("vertical", list(QUOTATIONS))
def test_the_vertical_filter_keeps_its_vertical_with_its_own_quotations_and_regions(
    api, catalogue, vertical
):
    items = api.catalogue(**{"filter[vertical]": vertical})
    assert items
    assert items == [c for c in catalogue if c["filters"]["vertical"] == vertical]
    for item in items:
        assert item["quotation"] in QUOTATIONS[vertical], item["quotation"]
        assert item["filters"]["region"] in REGIONS[vertical], item["filters"]["region"]


@pytest.mark.parametrize(
    ("value", "vertical"),
    [("fuel oil", "Fuel Oil"), ("FUEL_OIL", "Fuel Oil"), ("ulsd", "ULSD"), ("JET", "Jet")],
)
def test_the_vertical_filter_ignores_case_and_takes_the_bulk_spelling(
    api, catalogue, value, vertical
):
    items = api.catalogue(**{"filter[vertical]": value})
    assert items
    assert [i["id"] for i in items] == [
        c["id"] for c in catalogue if c["filters"]["vertical"] == vertical
    ]


@pytest.mark.parametrize("quotation", ALL_QUOTATIONS)
def test_the_quotation_filter_keeps_that_quotation(api, catalogue, quotation):
    items = api.catalogue(**{"filter[quotation]": quotation.upper()})
    assert items
    assert [i["id"] for i in items] == [
        c["id"] for c in catalogue if same(c["quotation"], quotation)
    ]
    assert {i["filters"]["vertical"] for i in items} == {
        v for v, qs in QUOTATIONS.items() if any(same(q, quotation) for q in qs)
    }


@pytest.mark.parametrize("region", ALL_REGIONS)
def test_the_region_filter_keeps_that_region(api, catalogue, region):
    items = api.catalogue(**{"filter[region]": region.lower()})
    assert items
    assert [i["id"] for i in items] == [
        c["id"] for c in catalogue if same(c["filters"]["region"], region)
    ]


def test_filters_combine(api, check):
    items = api.catalogue(**{"filter[vertical]": "Jet", "filter[quotation]": "fob"})
    assert len(items) == len(REGIONS["Jet"])
    assert sorted(i["filters"]["region"] for i in items) == sorted(REGIONS["Jet"])
    assert all(i["quotation"] == "Fob" for i in items)
    # A quotation the vertical does not have is a valid value that matches nothing.
    body = api.ok("/catalogue", {"filter[vertical]": "Fuel Oil", "filter[quotation]": "Fob"})
    check.envelope(body, catalogue_url(api))
    assert body["items"] == []
    assert body["next"] is None and body["prev"] is None


@pytest.mark.parametrize(
    "query",
    [
        {"filter[vertical]": "Coal"},
        {"filter[vertical]": "Gas oil"},
        {"filter[quotation]": "Spot"},
        {"filter[region]": "Mars"},
        {"filter[region]": "EU"},
    ],
    ids=repr,
)
def test_an_unknown_vertical_quotation_or_region_is_400(api, check, query):
    check.error(api.get("/catalogue", query), 400)


@pytest.mark.parametrize(
    ("key", "value"), [("grade", "95 RON"), ("loadPort", "Rotterdam"), ("productType", "RBOB")]
)
def test_custom_filters_filter_on_their_key(api, catalogue, key, value):
    expected = [c["id"] for c in catalogue if c["filters"].get(key) == value]
    assert expected, f"no curve of seed 0 has {key}={value}"
    items = api.catalogue(**{f"filter[{key}]": value})
    assert [i["id"] for i in items] == expected
    assert all(i["filters"][key] == value for i in items)


def test_a_custom_filter_no_curve_matches_gives_an_empty_page(api, check):
    body = api.ok("/catalogue", {"filter[grade]": "no such grade"})
    check.envelope(body, catalogue_url(api))
    assert body["items"] == []
    assert body["next"] is None and body["prev"] is None
    assert check.page_number(body["last"]) == 1


# The contracts list rolls with the clock.


def months_of(curve, check):
    return [n for n in curve["contracts"] if check.tenor_kind(n) == "month"]


def test_contracts_roll_forward_with_the_clock(own_api, catalogue, check):
    own_api.set_time("2025-07-28T17:00:00Z")
    rolled = {c["id"]: c for c in own_api.catalogue()}
    assert set(rolled) == {c["id"] for c in catalogue}
    for before in catalogue:
        after = rolled[before["id"]]
        old, new = months_of(before, check), months_of(after, check)
        assert "Jun 25" not in after["contracts"]
        assert new[0] == "Jul 25"
        assert len(new) == len(old)
        assert [m for m in new if m not in old], (old, new)
        for name in after["contracts"]:
            period = check.tenor_period(name)
            if period is not None:
                assert period[1] >= dt.date(2025, 7, 28), name
        if "26-EOM Jul 25" in before["contracts"]:
            assert "26-EOM Jul 25" in after["contracts"]
            assert "21-25 Jul 25" not in after["contracts"]
            assert "26-EOM Aug 25" in after["contracts"]


def catalogue_months_at(api, when):
    api.set_time(when)
    return {c["id"]: c["contracts"] for c in api.catalogue()}


def test_contracts_refresh_at_half_past_two_utc_on_weekdays(own_api):
    # Tuesday 1 July 2025: the list still shows June until 02:30 UTC.
    before = catalogue_months_at(own_api, "2025-07-01T02:29:59Z")
    after = catalogue_months_at(own_api, "2025-07-01T02:30:00Z")
    assert all("Jun 25" in contracts for contracts in before.values())
    assert not any("Jun 25" in contracts for contracts in after.values())


def test_contracts_do_not_refresh_at_the_weekend(own_api):
    # 1 November 2025 is a Saturday: October stays listed until Monday 3 November 02:30.
    for when in ["2025-11-01T12:00:00Z", "2025-11-02T23:00:00Z", "2025-11-03T02:29:00Z"]:
        listed = catalogue_months_at(own_api, when)
        assert all("Oct 25" in contracts for contracts in listed.values()), when
    listed = catalogue_months_at(own_api, "2025-11-03T02:30:00Z")
    assert not any("Oct 25" in contracts for contracts in listed.values())
    assert all("Nov 25" in contracts for contracts in listed.values())
