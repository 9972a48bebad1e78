"""A wrong type raises ``mc.InvalidType``: a ``TypeError`` as Python users
expect, and still a ``MarketCurvesError`` and an ``InvalidRequest`` (so that
``except mc.InvalidRequest`` keeps catching it). A wrong value of the right
type stays an ``InvalidRequest`` and is no ``TypeError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import marketcurves as mc
from marketcurves.testing import Emulator

ID = "425934c1-68dd-43eb-b8ee-477999b2f5ec"
RANGE = ("2025-05-01", "2025-05-31")

# (what is called, the argument named in the message)
WRONG_TYPES: list[tuple[Callable[[mc.Client], Any], str]] = [
    (lambda c: c.settlements(42, *RANGE), "curve_id"),
    (lambda c: c.settlements(ID, *RANGE, tenors=7), "tenors"),
    (lambda c: c.last_settlement(ID, 3.5), "tenor"),
    (lambda c: c.settlements(ID, 20250501, RANGE[1]), "start"),
    (lambda c: c.catalogue(vertical=["Jet"]), "vertical"),
    (lambda c: mc.Tenor(5), "name"),
]

WRONG_VALUES: list[tuple[Callable[[mc.Client], Any], str]] = [
    (lambda c: c.settlements(ID, RANGE[1], RANGE[0]), "start"),
    (lambda c: c.settlements(ID, "May 2025", RANGE[1]), "start"),
    (lambda c: c.last_settlement("..", None), "curve_id"),
]


def assert_invalid_type(error: BaseException, argument: str) -> None:
    assert isinstance(error, mc.InvalidType)
    assert isinstance(error, TypeError)
    assert isinstance(error, mc.InvalidRequest)
    assert isinstance(error, mc.MarketCurvesError)
    assert argument in str(error)


@pytest.mark.parametrize(("call", "argument"), WRONG_TYPES)
def test_a_wrong_type_is_a_type_error_and_an_invalid_request(
    em: Emulator, call: Callable[[mc.Client], Any], argument: str
) -> None:
    with em.client() as client, pytest.raises(TypeError) as caught:
        call(client)
    assert_invalid_type(caught.value, argument)


@pytest.mark.parametrize(("call", "argument"), WRONG_VALUES)
def test_a_wrong_value_stays_a_value_error(
    em: Emulator, call: Callable[[mc.Client], Any], argument: str
) -> None:
    with em.client() as client, pytest.raises(mc.InvalidRequest) as caught:
        call(client)
    assert isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, TypeError)
    assert argument in str(caught.value)


@pytest.mark.parametrize(
    ("settings", "argument"),
    [({"timeout": "x"}, "timeout"), ({"max_retries": 2.5}, "max_retries")],
)
def test_a_client_setting_of_the_wrong_type(
    em: Emulator, settings: dict[str, Any], argument: str
) -> None:
    with pytest.raises(mc.InvalidType) as caught:
        em.client(**settings)
    assert_invalid_type(caught.value, argument)


def test_except_invalid_request_still_catches_a_wrong_type(em: Emulator) -> None:
    with em.client() as client:
        try:
            client.settlements(42, *RANGE)
        except mc.InvalidRequest as error:
            caught: BaseException = error
    assert type(caught) is mc.InvalidType
    assert str(caught) == "curve_id must be a str or a Curve, not int"
