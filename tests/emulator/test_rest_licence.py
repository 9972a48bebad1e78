"""Licences: the demo account lacks Sales; licences can be revoked and restored."""

from marketcurves.testing import Emulator


def curve_of(catalogue, quotation, check):
    return check.find_curve(catalogue, lambda c: c["quotation"] == quotation)


def statuses(api, curve, check):
    return [api.get(p, q).status_code for p, q in check.data_endpoints(curve["id"], "Jul 25")]


def assert_forbidden(api, curve, check):
    for path, query in check.data_endpoints(curve["id"], "Jul 25"):
        check.error(api.get(path, query), 403)


def test_demo_account_is_refused_sales_curves(api, catalogue, check):
    sales = [c for c in catalogue if c["quotation"] == "Sales"]
    assert len(sales) == 30
    for curve in sales[::7]:
        assert_forbidden(api, curve, check)


def test_full_account_gets_sales_curves(full_api, catalogue, check):
    curve = curve_of(catalogue, "Sales", check)
    assert statuses(full_api, curve, check) == [200] * 7


def test_demo_account_gets_every_other_quotation(api, catalogue, check):
    quotations = sorted({c["quotation"] for c in catalogue} - {"Sales"})
    for quotation in quotations:
        curve = curve_of(catalogue, quotation, check)
        path, query = check.data_endpoints(curve["id"], "Jul 25")[0]
        assert api.get(path, query).status_code == 200, quotation
    assert statuses(api, curve_of(catalogue, "Fob", check), check) == [200] * 7


def test_revoking_one_quotation(emulator, own_api, catalogue, check):
    fob = curve_of(catalogue, "Fob", check)
    price = curve_of(catalogue, "Price", check)
    assert statuses(own_api, fob, check) == [200] * 7
    emulator.revoke_licence(quotation="Fob")
    assert_forbidden(own_api, fob, check)
    for curve in [c for c in catalogue if c["quotation"] == "Fob"][::5]:
        path, query = check.data_endpoints(curve["id"], "Jul 25")[0]
        check.error(own_api.get(path, query), 403)
    assert statuses(own_api, price, check) == [200] * 7
    full = emulator.token(email=check.FULL)
    for path, query in check.data_endpoints(fob["id"], "Jul 25"):
        assert own_api.get(path, query, token=full).status_code == 200


def test_revoking_everything_refuses_every_data_endpoint(emulator, own_api, catalogue, check):
    emulator.revoke_licence()
    for quotation in sorted({c["quotation"] for c in catalogue}):
        curve = curve_of(catalogue, quotation, check)
        assert_forbidden(own_api, curve, check)
    full = emulator.token(email=check.FULL)
    fob = curve_of(catalogue, "Fob", check)
    for path, query in check.data_endpoints(fob["id"], "Jul 25"):
        assert own_api.get(path, query, token=full).status_code == 200


def test_revoking_and_restoring_another_accounts_licence(emulator, own_api, catalogue, check):
    fob = curve_of(catalogue, "Fob", check)
    sales = curve_of(catalogue, "Sales", check)
    full = emulator.token(email=check.FULL)
    emulator.revoke_licence(check.FULL, quotation="Sales")
    for path, query in check.data_endpoints(sales["id"], "Jul 25"):
        check.error(own_api.get(path, query, token=full), 403)
    for path, query in check.data_endpoints(fob["id"], "Jul 25"):
        assert own_api.get(path, query, token=full).status_code == 200
    emulator.revoke_licence(check.FULL)
    for path, query in check.data_endpoints(fob["id"], "Jul 25"):
        check.error(own_api.get(path, query, token=full), 403)
    # The demo account is untouched.
    assert statuses(own_api, fob, check) == [200] * 7
    emulator.restore_licence(check.FULL)
    for curve in (fob, sales):
        for path, query in check.data_endpoints(curve["id"], "Jul 25"):
            assert own_api.get(path, query, token=full).status_code == 200


def test_restoring_gives_everything_back(emulator, own_api, catalogue, check):
    fob = curve_of(catalogue, "Fob", check)
    sales = curve_of(catalogue, "Sales", check)
    emulator.revoke_licence(quotation="Fob")
    emulator.revoke_licence()
    assert_forbidden(own_api, fob, check)
    emulator.restore_licence()
    assert statuses(own_api, fob, check) == [200] * 7
    assert statuses(own_api, sales, check) == [200] * 7


def test_licence_changes_stay_in_their_emulator(api, catalogue, check):
    fob = curve_of(catalogue, "Fob", check)
    with Emulator(seed=0, time_scale=0, start=check.START) as other:
        other.revoke_licence()
    assert statuses(api, fob, check) == [200] * 7
