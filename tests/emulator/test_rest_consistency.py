"""The same instant gives the same value on every endpoint; the world is a function of the seed."""

import pytest


def test_todays_settlement_is_the_same_on_every_endpoint(api, catalogue, check):
    curves = [c for c in catalogue if c["quotation"] != "Sales"][::40]
    assert len(curves) >= 5
    for curve in curves:
        for tenor in curve["contracts"][:: max(1, len(curve["contracts"]) // 4)]:
            t = check.seg(tenor)
            last = api.ok(f"/ongoing/last-settlement/{curve['id']}/{t}")
            history = api.settlements(curve["id"], tenor, "2025-06-13", "2025-06-13")
            assert [e["date"] for e in history] == ["2025-06-13"]
            london = api.ok(f"/ongoing/last-assessments/{curve['id']}/{t}")["londonSnapshot"]
            assert last["price"] == history[0]["value"]["price"] == london["price"], tenor
            assert last == history[0]["value"] == london, tenor


def test_the_all_tenor_forms_match_the_single_tenor_forms(api, fob_curve):
    curve_id = fob_curve["id"]
    settlements = api.ok(f"/ongoing/last-settlement/{curve_id}")["items"]
    assessments = api.ok(f"/ongoing/last-assessments/{curve_id}")["items"]
    assert len(settlements) == len(assessments) == len(fob_curve["contracts"])
    by_tenor = {a["tenor"]: a for a in assessments}
    for record in settlements:
        t = record["tenor"].replace(" ", "%20")
        assert api.ok(f"/ongoing/last-settlement/{curve_id}/{t}") == record
        single = api.ok(f"/ongoing/last-assessments/{curve_id}/{t}")
        assert {"tenor": record["tenor"], **single} == by_tenor[record["tenor"]]
        assert single["londonSnapshot"] == record


def test_historical_and_ongoing_intraday_agree_on_today(api, fob_curve, check):
    t = "Jul%2025"
    ongoing = api.pages(f"/ongoing/intraday/{fob_curve['id']}/{t}", {"pageSize": 1000})
    historical = api.pages(
        f"/historical/intraday/{fob_curve['id']}/{t}",
        {"startDate": "2025-06-13", "endDate": "2025-06-13", "pageSize": 1000},
    )
    ongoing_items = [i for b in ongoing for i in b["items"]]
    assert ongoing_items
    assert ongoing_items == [i for b in historical for i in b["items"]]


def test_a_settlement_keeps_its_value_as_the_clock_moves_on(own_api, fob_curve):
    before = own_api.settlements(fob_curve["id"], "Dec 25", "2025-06-02", "2025-06-13")
    own_api.set_time("2025-06-20T17:00:00Z")
    after = own_api.settlements(fob_curve["id"], "Dec 25", "2025-06-02", "2025-06-13")
    assert after == before


def test_prices_move_from_day_to_day(api, fob_curve):
    entries = api.settlements(fob_curve["id"], "Dec 25", "2025-05-01", "2025-06-13")
    assert len({e["value"]["price"] for e in entries}) > len(entries) // 2


def snapshot_of_world(api, curve_id, check):
    """Catalogue and data bodies, with the links (which carry the port) left out."""
    catalogue = api.catalogue()
    settlements = api.get(
        f"/historical/settlements/{curve_id}/Jul%2025",
        {"startDate": "2025-05-01", "endDate": "2025-06-13"},
    )
    intraday = api.ok(
        f"/historical/intraday/{curve_id}/Jul%2025",
        {"startDate": "2025-06-10", "endDate": "2025-06-11", "pageSize": 1000},
    )
    ongoing = api.ok(f"/ongoing/last-assessments/{curve_id}")
    assert settlements.status_code == 200
    return catalogue, settlements.content, intraday["items"], ongoing


def test_the_same_seed_and_start_give_the_same_world(make_api, fob_curve, check):
    one, two = make_api(seed=0), make_api(seed=0)
    assert one.base_url != two.base_url
    first = snapshot_of_world(one, fob_curve["id"], check)
    second = snapshot_of_world(two, fob_curve["id"], check)
    assert first[0] == second[0]
    assert first[1] == second[1], "settlement bodies differ byte for byte"
    assert first[2] == second[2]
    assert first[3] == second[3]


@pytest.mark.parametrize("seed", [1, 12345])
def test_another_seed_gives_other_curve_ids(make_api, catalogue, seed):
    other = make_api(seed=seed).catalogue()
    assert len(other) == 233
    assert not {c["id"] for c in other} & {c["id"] for c in catalogue}


def test_another_seed_gives_other_prices(make_api, check):
    def prices(api):
        curve = check.find_curve(api.catalogue(), lambda c: c["name"].startswith("Crude Fob AG"))
        entries = api.settlements(curve["id"], "Dec 25", "2025-06-02", "2025-06-13")
        return [e["value"]["price"] for e in entries]

    assert prices(make_api(seed=0)) != prices(make_api(seed=1))
