"""GET /historical/intraday/<curve_id>/<tenor>: windows of at most 30 days, paged."""

import datetime as dt
import itertools

import pytest

UTC = dt.UTC


def path(curve, tenor, check):
    return f"/historical/intraday/{curve['id']}/{check.seg(tenor)}"


def all_items(api, curve, tenor, start, end, check, page_size=1000):
    bodies = api.pages(
        path(curve, tenor, check), {"startDate": start, "endDate": end, "pageSize": page_size}
    )
    for body in bodies:
        check.envelope(body, api.base_url + path(curve, tenor, check))
    return [item for body in bodies for item in body["items"]]


def total_of(api, curve, tenor, start, end, check):
    """The number of items, from the last page alone."""
    query = {"startDate": start, "endDate": end, "pageSize": 1000}
    first = api.ok(path(curve, tenor, check), query)
    last = api.ok(first["last"])
    return (check.page_number(first["last"]) - 1) * 1000 + len(last["items"])


def test_default_page_size_is_100_and_links_carry_the_query(api, fine_curve, check):
    url = api.base_url + path(fine_curve, "Jul 25", check)
    query = {"startDate": "2025-06-09", "endDate": "2025-06-13"}
    body = api.ok(path(fine_curve, "Jul 25", check), query)
    check.envelope(body, url)
    assert len(body["items"]) == 100
    assert body["prev"] is None and body["next"] is not None
    for key in ("self", "next", "last"):
        params = check.query_of(body[key])
        assert params["startDate"] == ["2025-06-09"]
        assert params["endDate"] == ["2025-06-13"]
        assert params["pageSize"] == ["100"]
    assert check.page_number(body["self"]) == 1
    assert check.page_number(body["next"]) == 2


def test_following_next_gives_every_item_once_oldest_first(api, fine_curve, check):
    day = dt.date(2025, 6, 12)
    query = {"startDate": "2025-06-12", "endDate": "2025-06-12", "pageSize": 150}
    bodies = api.pages(path(fine_curve, "Jul 25", check), query)
    assert len(bodies) >= 5
    assert bodies[-1]["self"] == bodies[0]["last"]
    for number, body in enumerate(bodies, start=1):
        assert check.page_number(body["self"]) == number
        if number > 1:
            assert body["prev"] == bodies[number - 2]["self"]
        if number < len(bodies):
            assert len(body["items"]) == 150
    items = [item for body in bodies for item in body["items"]]
    stamps = [check.price_record(i, tenor="Jul 25", units=fine_curve["units"]) for i in items]
    assert stamps == sorted(stamps)
    assert len(set(stamps)) == len(stamps)
    assert all(s.date() == day for s in stamps)
    assert total_of(api, fine_curve, "Jul 25", "2025-06-12", "2025-06-12", check) == len(items)


def test_a_weekday_has_values_every_one_to_fifteen_minutes(api, catalogue, check):
    granularities = set()
    for curve in [c for c in catalogue if c["quotation"] != "Sales"][:12]:
        items = all_items(api, curve, "Jul 25", "2025-06-12", "2025-06-12", check)
        stamps = [check.parse_generated_on(i["generatedOn"]) for i in items]
        assert 96 <= len(stamps) <= 1440, len(stamps)
        assert stamps == sorted(stamps)
        midnight = dt.datetime(2025, 6, 12, tzinfo=UTC)
        assert stamps[0] - midnight <= dt.timedelta(minutes=15)
        assert midnight + dt.timedelta(days=1) - stamps[-1] <= dt.timedelta(minutes=16)
        gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(stamps)]
        assert min(gaps) > 0
        assert max(gaps) <= 16 * 60, max(gaps)
        # A whole business day holds every slot: a granularity that divides the day.
        assert 1440 % len(stamps) == 0, len(stamps)
        spacing = 1440 / len(stamps)
        granularities.add(round(spacing, 3))
    assert len(granularities) > 1, "every curve has the same granularity"


def test_weekend_days_have_no_values(api, fob_curve, check):
    body = api.ok(
        path(fob_curve, "Jul 25", check), {"startDate": "2025-06-07", "endDate": "2025-06-08"}
    )
    check.envelope(body, api.base_url + path(fob_curve, "Jul 25", check))
    assert body["items"] == []
    assert body["next"] is None and body["prev"] is None


def test_the_total_is_the_same_count_on_each_weekday(api, fob_curve, check):
    one_day = total_of(api, fob_curve, "Jul 25", "2025-06-02", "2025-06-02", check)
    week = total_of(api, fob_curve, "Jul 25", "2025-06-02", "2025-06-08", check)
    assert week == 5 * one_day
    window = total_of(api, fob_curve, "Jul 25", "2025-05-01", "2025-05-30", check)
    assert window == len(check.weekdays(dt.date(2025, 5, 1), dt.date(2025, 5, 30))) * one_day


def test_values_are_published_up_to_the_clock_only(api, fob_curve, check):
    items = all_items(api, fob_curve, "Jul 25", "2025-06-13", "2025-06-20", check)
    stamps = [check.parse_generated_on(i["generatedOn"]) for i in items]
    assert stamps
    now = dt.datetime(2025, 6, 13, 17, tzinfo=UTC)
    assert max(stamps) <= now
    assert now - max(stamps) <= dt.timedelta(minutes=16)
    assert all(s.date() == check.TODAY for s in stamps)


def test_the_last_page_and_page_sizes_up_to_1000(api, fine_curve, check):
    query = {"startDate": "2025-06-09", "endDate": "2025-06-12", "pageSize": 1000}
    first = api.ok(path(fine_curve, "Jul 25", check), query)
    assert check.query_of(first["self"])["pageSize"] == ["1000"]
    last = api.ok(first["last"])
    assert last["next"] is None
    assert last["self"] == first["last"]
    # Counted by walking pages of another size, independently of the last page.
    total = len(all_items(api, fine_curve, "Jul 25", "2025-06-09", "2025-06-12", check, 700))
    assert len(last["items"]) == (total % 1000 or 1000), total
    assert first["next"] is not None
    assert len(first["items"]) == 1000
    assert check.page_number(last["prev"]) == check.page_number(last["self"]) - 1


def test_a_thirty_day_window_is_accepted_and_thirty_one_is_400(api, fob_curve, check):
    p = path(fob_curve, "Jul 25", check)
    assert api.get(p, {"startDate": "2025-05-01", "endDate": "2025-05-30"}).status_code == 200
    check.error(api.get(p, {"startDate": "2025-05-01", "endDate": "2025-05-31"}), 400)
    check.error(api.get(p, {"startDate": "2025-01-01", "endDate": "2025-06-13"}), 400)


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"startDate": "2025-06-01"},
        {"endDate": "2025-06-13"},
        {"startDate": "2025/06/01", "endDate": "2025-06-13"},
        {"startDate": "2025-06-01", "endDate": "2025-02-30"},
        {"startDate": "2025-06-13", "endDate": "2025-06-12"},
        {"startDate": "2025-06-12", "endDate": "2025-06-12", "pageSize": 0},
        {"startDate": "2025-06-12", "endDate": "2025-06-12", "pageSize": -5},
        {"startDate": "2025-06-12", "endDate": "2025-06-12", "pageSize": 1001},
        {"startDate": "2025-06-12", "endDate": "2025-06-12", "pageSize": "x"},
        {"startDate": "2025-06-12", "endDate": "2025-06-12", "page": 0},
    ],
    ids=repr,
)
def test_bad_parameters_are_400(api, fob_curve, check, query):
    check.error(api.get(path(fob_curve, "Jul 25", check), query), 400)


def test_unknown_curves_and_tenors(api, catalogue, fob_curve, check):
    query = {"startDate": "2025-06-12", "endDate": "2025-06-12"}
    unknown = "00000000-0000-4000-8000-000000000000"
    check.error(api.get(f"/historical/intraday/{unknown}/Jul%2025", query), 404)
    check.error(api.get(path(fob_curve, "Q5 25", check), query), 400)
    plain = check.find_curve(
        catalogue, lambda c: c["quotation"] != "Sales" and "C 00" not in c["contracts"]
    )
    check.error(api.get(path(plain, "C 00", check), query), 404)
