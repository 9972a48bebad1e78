"""The ongoing endpoints: last settlement, last assessments and intraday of the current UTC day."""

import datetime as dt

UTC = dt.UTC
SNAPSHOTS = ("singaporeSnapshot", "londonSnapshot", "newYorkSnapshot")


def at(day, hour, minute=0):
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=UTC)


# Last settlement.


def test_last_settlement_of_a_tenor_is_todays_london_snapshot(api, fob_curve, check):
    record = api.ok(f"/ongoing/last-settlement/{fob_curve['id']}/Jul%2025")
    stamp = check.price_record(record, tenor="Jul 25", units=fob_curve["units"])
    assert stamp == at(check.TODAY, 15, 30)


def test_last_settlement_of_a_curve_has_one_record_per_contract(api, fob_curve, check):
    body = api.ok(f"/ongoing/last-settlement/{fob_curve['id']}")
    assert set(body) == {"items"}
    tenors = [item["tenor"] for item in body["items"]]
    assert sorted(tenors) == sorted(fob_curve["contracts"])
    for item in body["items"]:
        stamp = check.price_record(item, units=fob_curve["units"])
        assert stamp == at(check.TODAY, 15, 30)


def test_last_settlement_is_404_before_it_is_published(own_api, fob_curve, check):
    for when in ["2025-06-13T10:00:00Z", "2025-06-13T15:30:00Z", "2025-06-13T15:34:59Z"]:
        own_api.set_time(when)
        check.error(own_api.get(f"/ongoing/last-settlement/{fob_curve['id']}/Jul%2025"), 404)
        assert own_api.ok(f"/ongoing/last-settlement/{fob_curve['id']}") == {"items": []}
    own_api.set_time("2025-06-13T15:44:00Z")
    record = own_api.ok(f"/ongoing/last-settlement/{fob_curve['id']}/Jul%2025")
    assert check.parse_generated_on(record["generatedOn"]) == at(check.TODAY, 15, 30)


def test_last_settlement_covers_the_current_utc_day_only(own_api, fob_curve, check):
    # Saturday and Sunday have no settlement, and Friday's is not served on Saturday.
    for when in ["2025-06-14T00:30:00Z", "2025-06-14T17:00:00Z", "2025-06-15T20:00:00Z"]:
        own_api.set_time(when)
        check.error(own_api.get(f"/ongoing/last-settlement/{fob_curve['id']}/Jul%2025"), 404)
        assert own_api.ok(f"/ongoing/last-settlement/{fob_curve['id']}") == {"items": []}


def test_last_settlement_in_winter_is_at_half_past_four_utc(own_api, fob_curve, check):
    own_api.set_time("2025-01-15T20:00:00Z")
    record = own_api.ok(f"/ongoing/last-settlement/{fob_curve['id']}/Jul%2025")
    assert check.parse_generated_on(record["generatedOn"]) == at(dt.date(2025, 1, 15), 16, 30)


# Last assessments.


def assessment_times(body, check):
    return {
        key: None if body[key] is None else check.parse_generated_on(body[key]["generatedOn"])
        for key in SNAPSHOTS
    }


def test_assessments_after_the_london_close(api, fob_curve, check):
    body = api.ok(f"/ongoing/last-assessments/{fob_curve['id']}/Jul%2025")
    assert set(body) == set(SNAPSHOTS)
    for key in ("singaporeSnapshot", "londonSnapshot"):
        check.price_record(body[key], tenor="Jul 25", units=fob_curve["units"])
    assert assessment_times(body, check) == {
        "singaporeSnapshot": at(check.TODAY, 8, 30),
        "londonSnapshot": at(check.TODAY, 15, 30),
        "newYorkSnapshot": None,
    }


def test_assessments_fill_in_through_the_day(own_api, fob_curve, check):
    url = f"/ongoing/last-assessments/{fob_curve['id']}/Jul%2025"
    own_api.set_time("2025-06-13T09:00:00Z")
    assert assessment_times(own_api.ok(url), check) == {
        "singaporeSnapshot": at(check.TODAY, 8, 30),
        "londonSnapshot": None,
        "newYorkSnapshot": None,
    }
    own_api.set_time("2025-06-13T19:00:00Z")
    body = own_api.ok(url)
    for key in SNAPSHOTS:
        check.price_record(body[key], tenor="Jul 25", units=fob_curve["units"])
    assert assessment_times(body, check) == {
        "singaporeSnapshot": at(check.TODAY, 8, 30),
        "londonSnapshot": at(check.TODAY, 15, 30),
        "newYorkSnapshot": at(check.TODAY, 18, 30),
    }


def test_assessment_times_follow_local_time_in_winter(own_api, fob_curve, check):
    own_api.set_time("2025-01-15T21:00:00Z")
    body = own_api.ok(f"/ongoing/last-assessments/{fob_curve['id']}/Jul%2025")
    day = dt.date(2025, 1, 15)
    assert assessment_times(body, check) == {
        "singaporeSnapshot": at(day, 8, 30),
        "londonSnapshot": at(day, 16, 30),
        "newYorkSnapshot": at(day, 19, 30),
    }


def test_assessments_of_a_curve_carry_their_tenor(api, fob_curve, check):
    body = api.ok(f"/ongoing/last-assessments/{fob_curve['id']}")
    assert set(body) == {"items"}
    assert sorted(item["tenor"] for item in body["items"]) == sorted(fob_curve["contracts"])
    for item in body["items"]:
        assert set(item) == {"tenor", *SNAPSHOTS}
        assert item["newYorkSnapshot"] is None
        for key in ("singaporeSnapshot", "londonSnapshot"):
            check.price_record(item[key], tenor=item["tenor"], units=fob_curve["units"])


# Intraday of the current day.


def test_ongoing_intraday_is_todays_ticks_up_to_the_clock(api, fob_curve, check):
    url = f"/ongoing/intraday/{fob_curve['id']}/Jul%2025"
    bodies = api.pages(url, {"pageSize": 1000})
    for body in bodies:
        check.envelope(body, api.base_url + url)
    items = [item for body in bodies for item in body["items"]]
    stamps = [check.price_record(i, tenor="Jul 25", units=fob_curve["units"]) for i in items]
    now = at(check.TODAY, 17)
    assert stamps == sorted(stamps)
    assert all(s.date() == check.TODAY and s <= now for s in stamps)
    assert stamps[0] - at(check.TODAY, 0) <= dt.timedelta(minutes=15)
    assert now - stamps[-1] <= dt.timedelta(minutes=16)
    # Values every 1 to 15 minutes over the 17 hours since midnight.
    assert 17 * 60 // 15 <= len(items) <= 17 * 60 + 1


def test_ongoing_intraday_pages_with_a_default_size_of_100(api, catalogue, check):
    # A curve with more than 100 values since midnight (granularity under 10 minutes).
    for curve in catalogue:
        url = f"/ongoing/intraday/{curve['id']}/Jul%2025"
        if curve["quotation"] != "Sales" and api.ok(url)["next"] is not None:
            break
    else:
        raise AssertionError("no curve has a second page of ongoing intraday values")
    first = api.ok(url)
    check.envelope(first, api.base_url + url)
    assert check.query_of(first["self"]) == {"page": ["1"], "pageSize": ["100"]}
    assert len(first["items"]) == 100
    assert first["prev"] is None
    second = api.ok(first["next"])
    check.envelope(second, api.base_url + url)
    assert check.page_number(second["self"]) == 2
    assert check.page_number(second["prev"]) == 1
    assert second["items"]
    last_of_first = check.parse_generated_on(first["items"][-1]["generatedOn"])
    assert last_of_first < check.parse_generated_on(second["items"][0]["generatedOn"])


def test_ongoing_intraday_grows_with_the_clock_and_is_empty_at_the_weekend(
    own_api, fob_curve, check
):
    url = f"/ongoing/intraday/{fob_curve['id']}/Jul%2025"

    def count():
        body = own_api.ok(url, {"pageSize": 1000})
        last = own_api.ok(body["last"])
        return (check.page_number(body["last"]) - 1) * 1000 + len(last["items"])

    own_api.set_time("2025-06-13T06:00:00Z")
    morning = count()
    own_api.set_time("2025-06-13T12:00:00Z")
    noon = count()
    assert 0 < morning < noon
    assert noon == 2 * morning or abs(noon - 2 * morning) <= 1
    own_api.set_time("2025-06-14T12:00:00Z")
    body = own_api.ok(url)
    assert body["items"] == [] and body["next"] is None


def test_ongoing_errors(api, catalogue, fob_curve, check):
    unknown = "00000000-0000-4000-8000-000000000000"
    for url in [
        f"/ongoing/last-settlement/{unknown}/Jul%2025",
        f"/ongoing/last-settlement/{unknown}",
        f"/ongoing/last-assessments/{unknown}/Jul%2025",
        f"/ongoing/last-assessments/{unknown}",
        f"/ongoing/intraday/{unknown}/Jul%2025",
    ]:
        check.error(api.get(url), 404)
    for kind in ["last-settlement", "last-assessments", "intraday"]:
        check.error(api.get(f"/ongoing/{kind}/{fob_curve['id']}/Q5%2025"), 400)
    plain = check.find_curve(
        catalogue, lambda c: c["quotation"] != "Sales" and "C 00" not in c["contracts"]
    )
    for kind in ["last-settlement", "last-assessments", "intraday"]:
        check.error(api.get(f"/ongoing/{kind}/{plain['id']}/C%2000"), 404)
