"""The request budget (``max_requests=``): a call whose plan needs more
requests than it allows raises ``BudgetExceeded`` before sending them, the
emulator's counters showing none; a call within it sends no more than it
allows (its pages are one each here: settlements have none); days the
cache holds cost nothing, so a warm call passes a budget of 0."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from cache_helpers import SUMMER, TWO, YESTERDAY, Requests, count_requests

import marketcurves as mc

#: Final days on the emulator's stopped clock.
START = YESTERDAY - dt.timedelta(days=4)


def raised(em: Any, call: Callable[[], Any], error: type[Exception] = mc.BudgetExceeded):
    """The error ``call()`` must raise, and the requests it sent."""

    def run() -> Exception:
        with pytest.raises(error) as caught:
            call()
        return caught.value

    result: tuple[Exception, Requests] = count_requests(em, run)
    return result


def test_a_call_over_budget_raises_before_sending_anything(em, client, curve):
    # Cold: the catalogue (one request) and one request per tenor.
    error, sent = raised(
        em, lambda: client.settlements(curve, START, YESTERDAY, SUMMER, max_requests=3)
    )
    assert isinstance(error, mc.BudgetExceeded)
    assert isinstance(error, mc.InvalidRequest) and isinstance(error, ValueError)
    assert (error.needed, error.allowed) == (1 + len(SUMMER), 3)
    message = str(error)
    assert "4 requests" in message and "max_requests=3" in message, message
    assert "fewer tenors" in message and "cache_dir=" in message, message
    assert sent.total == 0, sent


def test_within_budget_it_sends_no_more_than_allowed_and_warm_it_costs_nothing(em, client, curve):
    # The catalogue counts as one request, but its pages after the first
    # are known only from its first answer: kept first, so that every
    # request of the call is one the plan counted.
    client.settlements(curve, START, START, "Jul 25")
    budget = len(SUMMER)
    pull = client.settlements
    with pytest.raises(mc.BudgetExceeded):
        pull(curve, START, YESTERDAY, SUMMER, max_requests=budget - 1)
    table, sent = count_requests(
        em, lambda: pull(curve, START, YESTERDAY, SUMMER, max_requests=budget)
    )
    assert table.num_rows > 0
    assert 0 < sent.total <= budget, sent
    # Every day is now cached, and the catalogue too: a budget of 0 passes.
    again, sent = count_requests(em, lambda: pull(curve, START, YESTERDAY, SUMMER, max_requests=0))
    assert sent.total == 0, sent
    assert again == table
    # One day more than the cache holds costs its one request per tenor.
    earlier = START - dt.timedelta(days=1)
    with pytest.raises(mc.BudgetExceeded) as caught:
        pull(curve, earlier, YESTERDAY, SUMMER, max_requests=len(SUMMER) - 1)
    assert caught.value.needed == len(SUMMER)


def test_intraday_history_counts_each_tenor_and_30_day_window(em, client, curve):
    start = YESTERDAY - dt.timedelta(days=40)  # two windows a tenor
    error, sent = raised(
        em, lambda: client.intraday_history(curve, start, YESTERDAY, TWO, max_requests=2)
    )
    assert isinstance(error, mc.BudgetExceeded)
    assert error.needed == 1 + 2 * len(TWO)
    assert sent.total == 0, sent


def test_the_clients_budget_is_the_default_and_a_call_overrides_it(em, cache_dir, curve):
    with em.client(cache_dir=cache_dir, max_requests=1) as limited:
        error, sent = raised(em, lambda: limited.settlements(curve, START, YESTERDAY, TWO))
        assert isinstance(error, mc.BudgetExceeded)
        assert error.allowed == 1
        assert sent.total == 0, sent
        table = limited.settlements(curve, START, YESTERDAY, TWO, max_requests=1 + len(TWO))
        assert table.num_rows > 0
        # The client's default applies to today's values too: one request,
        # the catalogue being kept now.
        assert limited.intraday(curve, "Jul 25").num_columns > 0
        with pytest.raises(mc.BudgetExceeded):
            limited.intraday(curve, "Jul 25", max_requests=0)


def test_the_async_twins_take_the_budget(em, client, curve):
    async def pulls() -> list[BaseException | None]:
        outcomes: list[BaseException | None] = []
        for call in (
            client.settlements_async(curve, START, YESTERDAY, TWO, max_requests=1),
            client.intraday_history_async(curve, START, YESTERDAY, TWO, max_requests=1),
            client.intraday_async(curve, "Jul 25", max_requests=0),
        ):
            try:
                await asyncio.wait_for(call, 60)
                outcomes.append(None)
            except mc.BudgetExceeded as error:
                outcomes.append(error)
        return outcomes

    outcomes, sent = count_requests(em, lambda: asyncio.run(pulls()))
    assert all(isinstance(o, mc.BudgetExceeded) for o in outcomes), outcomes
    assert sent.total == 0, sent


@pytest.mark.parametrize(("value", "error"), [(-1, mc.InvalidRequest), ("3", mc.InvalidType)])
def test_a_bad_budget_is_refused_before_anything_is_sent(em, client, curve, value, error):
    call = lambda: client.settlements(curve, START, YESTERDAY, max_requests=value)  # noqa: E731
    _, sent = raised(em, call, error)
    assert sent.total == 0, sent
    with pytest.raises(error, match="max_requests"):
        mc.Client(em.base_url, token="t", max_requests=value)


def test_a_backfill_over_budget_runs_no_task(em, client, curve, tmp_path):
    client.settlements(curve, START, YESTERDAY, TWO)  # the catalogue, kept
    lake = tmp_path / "lake"
    pairs = [(curve, tenor) for tenor in TWO]
    error, sent = raised(em, lambda: client.backfill(lake, pairs, START, YESTERDAY, max_requests=1))
    assert isinstance(error, mc.BudgetExceeded)
    assert error.needed == len(TWO)
    assert sent.total == 0, sent
    assert not list(lake.rglob("*.parquet"))
    summary, sent = count_requests(
        em, lambda: client.backfill(lake, pairs, START, YESTERDAY, max_requests=len(TWO))
    )
    assert summary.values > 0 and sent.intraday >= len(TWO)
