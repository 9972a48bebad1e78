import pytest

import marketcurves as mc
from marketcurves import exceptions
from marketcurves.testing import decode_table

NAMES = [
    "AuthError",
    "AccessDenied",
    "NotFound",
    "InvalidRequest",
    "InvalidType",
    "BudgetExceeded",
    "RateLimited",
    "ServiceError",
    "BulkJobFailed",
    "CacheMiss",
    "ClientClosed",
    "LiveFeedError",
    "DecodeError",
    "DestinationError",
    "MissingWorkerCredentials",
]


@pytest.mark.parametrize("name", NAMES)
def test_every_error_is_a_market_curves_error(name):
    cls = getattr(exceptions, name)
    assert issubclass(cls, mc.MarketCurvesError)
    assert getattr(mc, name) is cls
    assert cls.__doc__
    assert str(cls("something went wrong")) == "something went wrong"


def test_the_tree_is_exactly_the_designs():
    assert sorted(exceptions.__all__) == sorted([*NAMES, "MarketCurvesError"])


def test_invalid_request_is_also_a_value_error():
    assert issubclass(mc.InvalidRequest, ValueError)


def test_a_budget_exceeded_is_an_invalid_request_naming_its_counts():
    assert issubclass(mc.BudgetExceeded, mc.InvalidRequest)
    assert issubclass(mc.BudgetExceeded, ValueError)
    error = mc.BudgetExceeded("too many", needed=7, allowed=2)
    assert (error.needed, error.allowed) == (7, 2)


def test_a_workers_missing_credentials_are_an_auth_error():
    assert issubclass(mc.MissingWorkerCredentials, mc.AuthError)


def test_a_destination_error_is_also_an_os_error():
    assert issubclass(mc.DestinationError, OSError)


def test_decode_error_names_endpoint_and_field():
    with pytest.raises(mc.DecodeError) as caught:
        decode_table("intraday", b'{"items":[{"tenor":"Jan 26","price":"n/a"}]}', "c")
    error = caught.value
    assert error.endpoint == "GET /ongoing/intraday/<curve_id>/<tenor>"
    assert error.field == "items[0].price"
    assert "items[0].price" in str(error) and error.endpoint in str(error)


def test_invalid_type_is_a_type_error_and_an_invalid_request():
    assert issubclass(mc.InvalidType, TypeError)
    assert issubclass(mc.InvalidType, mc.InvalidRequest)
    assert issubclass(mc.InvalidType, ValueError), "except ValueError keeps catching it"
