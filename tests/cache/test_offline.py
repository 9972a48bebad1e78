"""Offline: what the cache holds comes back with no network at all, even
for the login; what it lacks raises ``CacheMiss`` naming the curve, the
tenors and the days, and nothing is sent. The awaitable twins too."""

from __future__ import annotations

import asyncio

import pytest
from cache_helpers import (
    SUMMER,
    TWO,
    YESTERDAY,
    Requests,
    assert_same_table,
    day,
    segment_files,
)

import marketcurves as mc

MAY = ("2025-05-01", "2025-05-31")


def _pulls(client: mc.Client, curve: str, **kw):
    """The tables a session pulls: settlements of every contract (so the
    catalogue is needed), intraday values of two, and the catalogue."""
    return (
        client.settlements(curve, "2025-05-01", YESTERDAY, **kw),
        client.intraday_history(curve, "2025-06-10", YESTERDAY, TWO, **kw),
        client.catalogue(**kw).to_arrow(),
    )


def test_offline_serves_the_same_tables_with_the_emulator_stopped(fresh_em, cache_dir, curve):
    with fresh_em.client(cache_dir=cache_dir) as online:
        settlements, intraday, catalogue = _pulls(online, curve)
    base_url, credentials = fresh_em.base_url, fresh_em.credentials
    made_before = fresh_em.client(cache_dir=cache_dir, cache="offline")
    fresh_em.stop()
    # A login names its account by its email: no request is needed to find
    # the cache's folder, so a client made with the service gone works too.
    quick = {"max_retries": 0, "timeout": 2.0}
    made_after = mc.Client(
        base_url=base_url, **credentials, cache_dir=cache_dir, cache="offline", **quick
    )
    per_call = mc.Client(base_url=base_url, **credentials, cache_dir=cache_dir, **quick)
    # "use" sends nothing either when everything is cached.
    using = mc.Client(base_url=base_url, **credentials, cache_dir=cache_dir, **quick)
    for name, client, kw in [
        ("made before the stop", made_before, {}),
        ("made after the stop", made_after, {}),
        ("offline per call", per_call, {"cache": "offline"}),
        ("use, all cached", using, {}),
    ]:
        with client:
            got = _pulls(client, curve, **kw)
        assert_same_table(got[0], settlements, f"settlements, {name}")
        assert_same_table(got[1], intraday, f"intraday, {name}")
        assert got[2].equals(catalogue), f"catalogue, {name}"


def test_a_missing_range_offline_raises_cache_miss_naming_what_is_missing(
    em, client, cache_dir, curve
):
    client.settlements(curve, *MAY, TWO)
    offline = em.client(cache_dir=cache_dir, cache="offline")

    with Requests(em) as sent, pytest.raises(mc.CacheMiss) as caught:
        offline.settlements(curve, "2025-04-20", "2025-06-05", TWO)
    assert sent.total == 0, sent
    runs = [(day("2025-04-20"), day("2025-04-30")), (day("2025-06-01"), day("2025-06-05"))]
    assert caught.value.curve_id == curve
    assert caught.value.missing == {tenor: runs for tenor in TWO}
    message = str(caught.value)
    for part in [
        curve,
        "settlements",
        *TWO,
        "2025-04-20",
        "2025-04-30",
        "2025-06-01",
        "2025-06-05",
    ]:
        assert part in message, (part, message)
    assert "2025-05-" not in message, "a cached day is named missing"

    # One tenor lacking: only it is named.
    with Requests(em) as sent, pytest.raises(mc.CacheMiss) as caught:
        offline.settlements(curve, *MAY, SUMMER)
    assert sent.total == 0, sent
    assert caught.value.missing == {"Q3 25": [(day(MAY[0]), day(MAY[1]))]}
    assert "Q3 25" in str(caught.value) and "Jul 25" not in str(caught.value)

    # Offline for one call of a client that uses the cache; intraday values.
    with Requests(em) as sent, pytest.raises(mc.CacheMiss) as caught:
        client.intraday_history(curve, "2025-06-10", "2025-06-12", TWO, cache="offline")
    assert sent.total == 0, sent
    assert caught.value.missing == {t: [(day("2025-06-10"), day("2025-06-12"))] for t in TWO}
    assert "intraday" in str(caught.value) and curve in str(caught.value)
    assert not segment_files(cache_dir, "intraday"), "offline wrote something"


def test_offline_serves_the_cached_days_of_a_range_with_none_missing(em, client, cache_dir, curve):
    client.settlements(curve, "2025-04-01", "2025-04-30", TWO)
    client.settlements(curve, "2025-05-01", "2025-05-31", TWO)
    offline = em.client(cache_dir=cache_dir, cache="offline")
    with Requests(em) as sent:
        inner = offline.settlements(curve, "2025-04-10", "2025-05-20", TWO)
    assert sent.total == 0, sent
    assert_same_table(
        inner, client.settlements(curve, "2025-04-10", "2025-05-20", TWO, cache="off"), "inside"
    )


def test_the_awaitable_twins_use_the_cache_and_work_offline(fresh_em, cache_dir, curve):
    async def session() -> None:
        async with fresh_em.client(cache_dir=cache_dir) as online:
            settlements = await online.settlements_async(curve, *MAY, TWO)
            intraday = await online.intraday_history_async(curve, "2025-06-10", YESTERDAY, TWO)
            with Requests(fresh_em) as sent:
                again = await online.settlements_async(curve, *MAY, TWO)
            assert sent.total == 0, sent
            assert_same_table(again, settlements, "awaited again")
            uncached = await online.settlements_async(curve, *MAY, TWO, cache="off")
            assert_same_table(settlements, uncached, "awaited")
            info = await online.cache_info_async()
            assert {c["history"] for c in info["curves"]} == {"settlements", "intraday"}

        fresh_em.stop()
        async with fresh_em.client(cache_dir=cache_dir, cache="offline") as offline:
            got = await offline.settlements_async(curve, *MAY, TWO)
            assert_same_table(got, settlements, "awaited offline")
            got = await offline.intraday_history_async(curve, "2025-06-10", YESTERDAY, TWO)
            assert_same_table(got, intraday, "awaited offline")
            with pytest.raises(mc.CacheMiss) as caught:
                await offline.settlements_async(curve, "2025-06-01", YESTERDAY, TWO)
            assert set(caught.value.missing) == set(TWO)
            cleared = await offline.clear_cache_async(curve)
            assert cleared["files"] >= 2 * len(TWO) and cleared["bytes"] > 0
            with pytest.raises(mc.CacheMiss):
                await offline.settlements_async(curve, *MAY, TWO)

    asyncio.run(session())


def test_offline_on_an_empty_cache_misses_everything(em, cache_dir, curve):
    offline = em.client(cache_dir=cache_dir / "never-used", cache="offline")
    with Requests(em) as sent:
        with pytest.raises(mc.CacheMiss) as caught:
            offline.settlements(curve, *MAY, TWO)
        assert caught.value.missing == {t: [(day(MAY[0]), day(MAY[1]))] for t in TWO}
        with pytest.raises(mc.CacheMiss):
            offline.intraday_history(curve, *MAY)
        with pytest.raises(mc.CacheMiss):
            offline.catalogue(vertical="Jet")
    assert sent.total == 0, sent
