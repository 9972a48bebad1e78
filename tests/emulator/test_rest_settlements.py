"""GET /historical/settlements/<curve_id>/<tenor>: one London snapshot per business day."""

import datetime as dt

import pytest


def path(curve, tenor, check):
    return f"/historical/settlements/{curve['id']}/{check.seg(tenor)}"


def test_one_entry_per_business_day_newest_first(api, fob_curve, check):
    entries = api.settlements(fob_curve["id"], "Dec 25", "2025-05-01", "2025-06-13")
    assert isinstance(entries, list)
    dates = [dt.date.fromisoformat(e["date"]) for e in entries]
    assert dates == sorted(check.weekdays(dt.date(2025, 5, 1), check.TODAY), reverse=True)
    for entry in entries:
        assert set(entry) == {"date", "value"}
        assert len(entry["date"]) == 10
        stamp = check.price_record(entry["value"], tenor="Dec 25", units=fob_curve["units"])
        assert stamp.date().isoformat() == entry["date"]


def test_a_range_of_only_a_weekend_is_empty(api, fob_curve):
    assert api.settlements(fob_curve["id"], "Dec 25", "2025-06-07", "2025-06-08") == []


def test_a_single_day_range_gives_that_day(api, fob_curve):
    entries = api.settlements(fob_curve["id"], "Dec 25", "2025-06-11", "2025-06-11")
    assert [e["date"] for e in entries] == ["2025-06-11"]


def test_days_after_the_clock_are_not_listed(api, fob_curve):
    entries = api.settlements(fob_curve["id"], "Dec 25", "2025-06-12", "2025-06-30")
    assert [e["date"] for e in entries] == ["2025-06-13", "2025-06-12"]
    assert api.settlements(fob_curve["id"], "Dec 25", "2025-06-14", "2025-06-30") == []


def test_generated_on_is_the_london_snapshot_time_in_utc(api, fob_curve, check):
    # 16:30 London is 15:30 UTC in summer time and 16:30 UTC in winter.
    entries = api.settlements(fob_curve["id"], "Dec 25", "2025-03-27", "2025-04-01")
    times = {e["date"]: check.parse_generated_on(e["value"]["generatedOn"]) for e in entries}
    assert sorted(times) == ["2025-03-27", "2025-03-28", "2025-03-31", "2025-04-01"]
    assert times["2025-03-27"].time() == dt.time(16, 30)
    assert times["2025-03-28"].time() == dt.time(16, 30)
    assert times["2025-03-31"].time() == dt.time(15, 30)
    assert times["2025-04-01"].time() == dt.time(15, 30)
    june = api.settlements(fob_curve["id"], "Dec 25", "2025-06-01", "2025-06-13")
    assert june
    for entry in june:
        assert check.parse_generated_on(entry["value"]["generatedOn"]) == dt.datetime.combine(
            dt.date.fromisoformat(entry["date"]), dt.time(15, 30), tzinfo=dt.UTC
        )


def test_early_close_days_snapshot_at_half_past_twelve_london(api, fob_curve, check):
    # The emulator's default early-close days are 24 and 31 December.
    entries = api.settlements(fob_curve["id"], "Jul 25", "2024-12-23", "2024-12-24")
    times = {e["date"]: check.parse_generated_on(e["value"]["generatedOn"]) for e in entries}
    assert times["2024-12-24"].time() == dt.time(12, 30)
    assert times["2024-12-23"].time() == dt.time(16, 30)


def test_generated_on_has_fractional_seconds_of_varying_length(api, catalogue, check):
    lengths = set()
    for curve in catalogue[:10]:
        entries = api.settlements(curve["id"], "Dec 25", "2025-05-01", "2025-06-13")
        for entry in entries:
            text = entry["value"]["generatedOn"]
            assert check.GENERATED_ON.match(text), text
            lengths.add(check.fraction_digits(text))
    assert len(lengths) > 1, lengths
    assert lengths <= set(range(7))


def test_records_carry_units_tenor_dependencies_and_metadata(api, catalogue, check):
    ids = {c["id"] for c in catalogue}
    delivered = check.find_curve(
        catalogue,
        lambda c: c["quotation"] == "Delivered price by load" and "11-15 Jun 25" in c["contracts"],
    )
    for tenor in ["Jul 25", "26-EOM Jun 25", "Q4 25"]:
        if tenor not in delivered["contracts"]:
            continue
        entries = api.settlements(delivered["id"], tenor, "2025-06-09", "2025-06-13")
        assert len(entries) == 5
        for entry in entries:
            record = entry["value"]
            check.price_record(record, tenor=tenor, units=delivered["units"])
            assert record["dependencies"], "a delivered price has components"
            for dep in record["dependencies"]:
                assert dep["id"] in ids and dep["id"] != delivered["id"]
                assert dep["units"] in {"$/mt", "$/bbl", "c/gal"}
            metadata = {m["name"]: m["value"] for m in record["metadata"]}
            assert {"loadDate", "deliveryDate", "monthName", "monthNumber"} <= set(metadata)
            assert check.METADATA_TIME.match(metadata["loadDate"]), metadata
            assert check.METADATA_TIME.match(metadata["deliveryDate"]), metadata
            load = dt.date.fromisoformat(metadata["loadDate"][:10])
            assert metadata["deliveryDate"] >= metadata["loadDate"]
            assert metadata["monthNumber"] == str(load.month)
            assert metadata["monthName"] == dt.date(2000, load.month, 1).strftime("%B")
            first, last = check.tenor_period(tenor)
            assert first <= load <= last, (tenor, load)


def test_dependency_ids_name_the_component_curves(api, catalogue, check):
    by_id = {c["id"]: c for c in catalogue}
    curve = check.find_curve(catalogue, lambda c: c["quotation"] == "Delivered price by load")
    record = api.settlements(curve["id"], "Aug 25", "2025-06-13", "2025-06-13")[0]["value"]
    assert record["dependencies"]
    for dep in record["dependencies"]:
        component = by_id[dep["id"]]
        assert dep["name"] == component["name"]
        assert dep["units"] == component["units"]


def test_a_monthly_record_has_the_metadata_of_its_month(api, fob_curve):
    record = api.settlements(fob_curve["id"], "Jul 25", "2025-06-13", "2025-06-13")[0]["value"]
    metadata = {m["name"]: m["value"] for m in record["metadata"]}
    assert metadata["loadDate"] == "2025-07-01T00:00:00.000Z"
    assert metadata["monthName"] == "July"
    assert metadata["monthNumber"] == "7"


def test_a_continuous_tenor_has_settlements(api, fob_curve, check):
    entries = api.settlements(fob_curve["id"], "C 00", "2025-06-09", "2025-06-13")
    assert [e["date"] for e in entries] == [
        "2025-06-13",
        "2025-06-12",
        "2025-06-11",
        "2025-06-10",
        "2025-06-09",
    ]
    for entry in entries:
        check.price_record(entry["value"], tenor="C 00")


def test_only_published_settlements_are_listed(emulator, own_api, fob_curve):
    # Taken at 15:30 UTC in June, published 5 to 14 minutes later.
    own_api.set_time("2025-06-13T15:34:59Z")
    entries = api_dates(own_api, fob_curve)
    assert entries[0] == "2025-06-12"
    own_api.set_time("2025-06-13T15:44:00Z")
    assert api_dates(own_api, fob_curve)[0] == "2025-06-13"
    own_api.set_time("2025-06-13T10:00:00Z")
    assert api_dates(own_api, fob_curve)[0] == "2025-06-12"


def api_dates(api, curve):
    return [e["date"] for e in api.settlements(curve["id"], "Dec 25", "2025-06-10", "2025-06-13")]


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"startDate": "2025-06-01"},
        {"endDate": "2025-06-13"},
        {"startDate": "", "endDate": "2025-06-13"},
        {"startDate": "2025/06/01", "endDate": "2025-06-13"},
        {"startDate": "2025-02-30", "endDate": "2025-06-13"},
        {"startDate": "2025-06-01", "endDate": "13-06-2025"},
        {"startDate": "2025-06-01", "endDate": "2025-06-13T00:00:00"},
        {"startDate": "2025-06", "endDate": "2025-06-13"},
        {"startDate": "yesterday", "endDate": "2025-06-13"},
        {"startDate": "2025-06-13", "endDate": "2025-06-12"},
    ],
    ids=repr,
)
def test_bad_dates_are_400(api, fob_curve, check, query):
    check.error(api.get(path(fob_curve, "Dec 25", check), query), 400)


def test_an_unknown_curve_is_404(api, check):
    query = {"startDate": "2025-06-01", "endDate": "2025-06-13"}
    unknown = "00000000-0000-4000-8000-000000000000"
    check.error(api.get(f"/historical/settlements/{unknown}/Dec%2025", query), 404)
    check.error(api.get("/historical/settlements/not-a-curve/Dec%2025", query), 404)


@pytest.mark.parametrize("tenor", ["Q5 25", "Q0 25", "3-7 Jul 25", "26-30 Jul 25"])
def test_an_invalid_tenor_is_400(api, fob_curve, check, tenor):
    query = {"startDate": "2025-06-01", "endDate": "2025-06-13"}
    check.error(api.get(path(fob_curve, tenor, check), query), 400)


def test_a_tenor_shape_the_curve_does_not_offer_is_404(api, catalogue, check):
    query = {"startDate": "2025-06-01", "endDate": "2025-06-13"}
    plain = check.find_curve(
        catalogue, lambda c: c["quotation"] != "Sales" and "C 00" not in c["contracts"]
    )
    check.error(api.get(path(plain, "C 00", check), query), 404)
    no_windows = check.find_curve(
        catalogue,
        lambda c: (
            c["quotation"] != "Sales"
            and not any(check.tenor_kind(n) == "window" for n in c["contracts"])
        ),
    )
    check.error(api.get(path(no_windows, "1-5 Jul 25", check), query), 404)


def test_the_tenor_is_one_url_encoded_path_segment(api, fob_curve, check):
    query = {"startDate": "2025-06-13", "endDate": "2025-06-13"}
    encoded = api.ok(f"/historical/settlements/{fob_curve['id']}/Jul%2025", query)
    assert encoded[0]["value"]["tenor"] == "Jul 25"
