"""Windows of at most 30 days and every page of each: nothing twice, nothing missed."""

from __future__ import annotations

import datetime as dt

# 75 days, Monday 3 March to Friday 16 May 2025: windows of 30, 30 and 15 days,
# each beginning and ending on a weekday, so a lost boundary day shows.
FIRST_DAY, LAST_DAY = "2025-03-03", "2025-05-16"
WINDOWS = [("2025-03-03", "2025-04-01"), ("2025-04-02", "2025-05-01"), ("2025-05-02", "2025-05-16")]
TENOR = "Aug 25"


def _days(first: str, last: str) -> list[dt.date]:
    a, b = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
    return [a + dt.timedelta(days=n) for n in range((b - a).days + 1)]


def test_the_windows_tile_the_range():
    assert len(_days(FIRST_DAY, LAST_DAY)) == 75
    covered = [day for first, last in WINDOWS for day in _days(first, last)]
    assert covered == _days(FIRST_DAY, LAST_DAY)
    assert all(len(_days(first, last)) <= 30 for first, last in WINDOWS)


def test_a_75_day_pull_is_the_union_of_its_30_day_windows(client, coarse):
    whole = client.intraday_history(coarse["id"], FIRST_DAY, LAST_DAY, [TENOR])
    parts = [client.intraday_history(coarse["id"], a, b, [TENOR]) for a, b in WINDOWS]
    assert whole.to_pylist() == [row for part in parts for row in part.to_pylist()]

    stamps = whole["generated_on"].to_pylist()
    keys = list(zip(whole["tenor"].to_pylist(), stamps, strict=False))
    assert len(set(keys)) == len(keys), "no (tenor, generated_on) twice"
    assert stamps == sorted(stamps)
    days = {s.date() for s in stamps}
    weekdays = {d for d in _days(FIRST_DAY, LAST_DAY) if d.weekday() < 5}
    assert weekdays <= days <= set(_days(FIRST_DAY, LAST_DAY)), "a day is missing or out of range"
    for first, last in WINDOWS:
        for boundary in (first, last):
            assert dt.date.fromisoformat(boundary) in days, boundary


def test_one_window_is_every_page_of_the_endpoint(client, wire, coarse, h):
    first, last = WINDOWS[1]
    records = wire.intraday_records(coarse["id"], TENOR, first, last, page_size=100)
    assert len(records) > 10 * 100, "the window spans many pages"
    expected = [h.expected_row(coarse["id"], r) for r in records]
    window = client.intraday_history(coarse["id"], first, last, TENOR)
    assert window.to_pylist() == expected

    whole = client.intraday_history(coarse["id"], FIRST_DAY, LAST_DAY, TENOR)
    lo = dt.datetime.fromisoformat(first).replace(tzinfo=dt.UTC)
    hi = dt.datetime.fromisoformat(last).replace(tzinfo=dt.UTC) + dt.timedelta(days=1)
    inside = [row for row in whole.to_pylist() if lo <= row["generated_on"] < hi]
    assert inside == expected


def test_several_tenors_and_windows_come_back_in_order(client, wire, coarse, h):
    tenors = ["Q3 25", "Aug 25", "Jul 25"]
    table = client.intraday_history(coarse["id"], "2025-05-20", "2025-06-20", tenors)
    halves = [("2025-05-20", "2025-06-18"), ("2025-06-19", "2025-06-20")]
    expected = [
        row
        for t in tenors
        for first, last in halves
        for row in wire.intraday_history(coarse["id"], t, first, last)
    ]
    h.assert_same_rows(table, expected)
    h.assert_sorted(table)
    assert list(dict.fromkeys(table["tenor"].to_pylist())) == h.calendar_order(tenors)


def test_intraday_is_every_page_of_today(client, wire, fob, h):
    pages = wire.pages(f"/ongoing/intraday/{fob['id']}/{h.seg('Jul 25')}")
    assert len(pages) > 2, "today spans several pages"
    expected = [h.expected_row(fob["id"], r) for body in pages for r in body["items"]]
    table = client.intraday(fob["id"], "Jul 25")
    assert table.to_pylist() == expected
    assert {g.date() for g in table["generated_on"].to_pylist()} == {h.TODAY}
