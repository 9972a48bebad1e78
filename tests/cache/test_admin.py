"""What the cache holds and clearing it (``cache_info``, ``clear_cache``),
and whose it is: each service and account has a folder of its own."""

from __future__ import annotations

import os
import time
import typing
from pathlib import Path

import pytest
from cache_helpers import (
    SUMMER,
    TWO,
    Requests,
    assert_same_table,
    catalogue_files,
    count_requests,
    day,
    segment_days,
    segment_files,
)
from support import start_emulator

import marketcurves as mc
from marketcurves.cache import CachedCurve, CacheInfo

APRIL_MAY = ("2025-04-01", "2025-05-31")
INTRADAY_DAYS = ("2025-06-09", "2025-06-12")
FULL = {"email": "full@marketcurves.test", "password": "full-password"}


def _fill(client: mc.Client, curves) -> None:
    client.settlements(curves.coarse, *APRIL_MAY, TWO)
    client.intraday_history(curves.coarse, *INTRADAY_DAYS, TWO)
    client.settlements(curves.other, "2025-05-01", "2025-05-30", SUMMER)


def _files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


def _entry(info: CacheInfo, curve: str, history: str) -> CachedCurve | None:
    found = [c for c in info["curves"] if c["curve_id"] == curve and c["history"] == history]
    assert len(found) <= 1, found
    return found[0] if found else None


def test_what_the_cache_makes_is_for_its_owner_alone(client, cache_dir, curves):
    cache_dir.mkdir(mode=0o755)
    os.chmod(cache_dir, 0o755)  # whatever the umask: the user's folder keeps its mode
    client.settlements(curves.coarse, *APRIL_MAY, TWO)
    made = list(cache_dir.rglob("*"))
    files = [p for p in made if p.is_file()]
    assert any(p.name == "service.json" for p in files) and len(files) > 2
    assert {p.stat().st_mode & 0o777 for p in files} == {0o600}
    assert {p.stat().st_mode & 0o777 for p in made if p.is_dir()} == {0o700}
    assert cache_dir.stat().st_mode & 0o777 == 0o755


def test_cache_info_tells_what_the_cache_holds(client, cache_dir, curves):
    _fill(client, curves)
    info = client.cache_info()
    folder = Path(info["dir"])
    assert folder.parent.parent == cache_dir
    files = _files_under(folder)
    assert info["files"] == len(files) and info["bytes"] == sum(p.stat().st_size for p in files)
    assert info["bytes"] > 0

    expected = {
        (curves.coarse, "settlements"): (len(TWO), day(APRIL_MAY[0]), day(APRIL_MAY[1])),
        (curves.coarse, "intraday"): (len(TWO), day(INTRADAY_DAYS[0]), day(INTRADAY_DAYS[1])),
        (curves.other, "settlements"): (len(SUMMER), day("2025-05-01"), day("2025-05-30")),
    }
    got = {
        (c["curve_id"], c["history"]): (c["tenors"], c["first"], c["last"]) for c in info["curves"]
    }
    assert got == expected
    for entry in info["curves"]:
        segments = list(folder.glob(f"{entry['history']}/{entry['curve_id']}/*/*.parquet"))
        assert entry["files"] == len(segments) > 0, entry
        assert entry["bytes"] == sum(p.stat().st_size for p in segments) > 0, entry


def test_cache_info_values_have_the_declared_types(client, curves):
    _fill(client, curves)
    info = client.cache_info()

    def check(value: object, hint: object, key: str) -> None:
        if typing.get_origin(hint) is typing.Literal:
            assert value in typing.get_args(hint), (key, value)
        elif typing.get_origin(hint) is list:
            assert isinstance(value, list), (key, value)
        else:
            assert isinstance(value, hint), f"{key}: {type(value).__name__}, not {hint}"  # type: ignore[arg-type]

    for key, hint in typing.get_type_hints(CachedCurve).items():
        for entry in info["curves"]:
            check(entry[key], hint, f"curves[].{key}")  # type: ignore[literal-required]
    for key, hint in typing.get_type_hints(CacheInfo).items():
        check(info[key], hint, key)  # type: ignore[literal-required]


def test_clearing_a_curve_leaves_the_others(em, client, cache_dir, curves):
    _fill(client, curves)
    theirs = segment_files(cache_dir, "settlements", None)
    other_files = [p for p in theirs if curves.other in str(p)]
    assert len(other_files) == len(SUMMER)
    expected_bytes = sum(p.stat().st_size for p in other_files)

    (other,) = [c for c in client.catalogue() if c.id == curves.other]
    cleared = client.clear_cache(curve_id=other)
    assert cleared == {"files": len(SUMMER), "bytes": expected_bytes}
    info = client.cache_info()
    assert _entry(info, curves.other, "settlements") is None
    assert _entry(info, curves.coarse, "settlements") is not None
    assert client.clear_cache(curve_id=curves.other) == {"files": 0, "bytes": 0}

    _, sent = count_requests(
        em, lambda: client.settlements(curves.other, "2025-05-01", "2025-05-30", SUMMER)
    )
    assert sent.settlements == len(SUMMER), sent
    _, sent = count_requests(em, lambda: client.settlements(curves.coarse, *APRIL_MAY, TWO))
    assert sent.total == 0, sent
    # Curve ids are names in the cache, never paths: nothing else goes, and
    # dots, which no curve id is, are refused.
    with pytest.raises(mc.InvalidRequest, match="curve_id"):
        client.clear_cache(curve_id="..")
    assert client.clear_cache(curve_id=f"../{Path(client.cache_info()['dir']).name}") == {
        "files": 0,
        "bytes": 0,
    }
    assert segment_files(cache_dir, "settlements")
    with pytest.raises(mc.InvalidRequest, match="curve_id"):
        client.clear_cache(curve_id=" ")


def test_clearing_days_before_a_date_refetches_only_them(em, client, cache_dir, curves):
    _fill(client, curves)
    first = client.settlements(curves.coarse, *APRIL_MAY, TWO)
    cleared = client.clear_cache(before="2025-05-01")
    assert cleared["files"] >= len(TWO) and cleared["bytes"] > 0

    info = client.cache_info()
    kept = _entry(info, curves.coarse, "settlements")
    assert kept is not None and (kept["first"], kept["last"]) == (
        day("2025-05-01"),
        day("2025-05-31"),
    )
    intraday = _entry(info, curves.coarse, "intraday")
    assert intraday is not None and intraday["first"] == day(INTRADAY_DAYS[0])
    for path in segment_files(cache_dir):
        assert segment_days(path)[0] >= day("2025-05-01"), path

    with Requests(em) as sent, pytest.raises(mc.CacheMiss) as caught:
        client.settlements(curves.coarse, *APRIL_MAY, TWO, cache="offline")
    assert sent.total == 0
    assert caught.value.missing == {t: [(day("2025-04-01"), day("2025-04-30"))] for t in TWO}
    again, sent = count_requests(em, lambda: client.settlements(curves.coarse, *APRIL_MAY, TWO))
    assert sent.settlements == len(TWO), f"April alone, one request a tenor: {sent}"
    assert_same_table(again, first, "after clearing April")
    assert catalogue_files(cache_dir), "clearing days kept the catalogue"

    # Intraday values too: the days before are fetched again, no more.
    intraday = client.intraday_history(curves.coarse, *INTRADAY_DAYS, TWO)
    client.clear_cache(curves.coarse, before="2025-06-11")
    info = client.cache_info()
    assert _entry(info, curves.coarse, "settlements") is None, "all of it was before"
    assert _entry(info, curves.other, "settlements") is not None, "another curve was cleared"
    kept = _entry(info, curves.coarse, "intraday")
    assert kept is not None and (kept["first"], kept["last"]) == (
        day("2025-06-11"),
        day("2025-06-12"),
    )
    _, cost = count_requests(
        em,
        lambda: client.intraday_history(
            curves.coarse, "2025-06-09", "2025-06-10", TWO, cache="off"
        ),
    )
    again, sent = count_requests(
        em, lambda: client.intraday_history(curves.coarse, *INTRADAY_DAYS, TWO)
    )
    assert sent.intraday == cost.intraday, (sent, cost)
    assert_same_table(again, intraday, "after clearing 9 and 10 June")


def test_clearing_everything_empties_the_cache(em, client, cache_dir, curves):
    _fill(client, curves)
    client.catalogue()
    assert catalogue_files(cache_dir)
    before = client.cache_info()
    cleared = client.clear_cache()
    assert not segment_files(cache_dir) and not catalogue_files(cache_dir)
    info = client.cache_info()
    assert info["curves"] == []
    assert info["files"] == len(_files_under(Path(info["dir"])))
    assert cleared["files"] == before["files"] - info["files"]
    assert cleared["bytes"] == before["bytes"] - info["bytes"]

    with em.client(cache_dir=cache_dir) as fresh:
        _, sent = count_requests(em, lambda: fresh.settlements(curves.coarse, *APRIL_MAY, TWO))
    assert sent.catalogue >= 1 and sent.settlements == len(TWO), sent


def test_clearing_removes_temporaries_a_dead_writer_left_an_hour_ago(em, client, cache_dir, curve):
    client.settlements(curve, *APRIL_MAY, TWO)
    (segment,) = segment_files(cache_dir, "settlements", "Jul 25")
    stale, fresh = (segment.parent / f".tmp-999-{i}-{segment.name}" for i in (1, 2))
    for path in (stale, fresh):
        path.write_bytes(b"half a file")
    hours_ago = time.time() - 2 * 3600
    os.utime(stale, (hours_ago, hours_ago))
    # Never read as segments.
    _, sent = count_requests(em, lambda: client.settlements(curve, *APRIL_MAY, TWO))
    assert sent.total == 0, sent
    cleared = client.clear_cache(curve_id="no-such-curve")
    assert cleared == {"files": 1, "bytes": len(b"half a file")}
    assert not stale.exists() and fresh.exists()


def test_many_pieces_of_one_pull_are_merged_into_one_file(em, client, cache_dir, curve):
    # Three weeks apart; then a pull over them all fetches the gaps: five
    # pieces, kept as one file.
    for start, end in [
        ("2025-05-05", "2025-05-09"),
        ("2025-05-19", "2025-05-23"),
        ("2025-06-02", "2025-06-06"),
    ]:
        client.settlements(curve, start, end, ["Jul 25"])
    assert len(segment_files(cache_dir, "settlements", "Jul 25")) == 3
    whole = client.settlements(curve, "2025-05-05", "2025-06-06", ["Jul 25"])
    (merged,) = segment_files(cache_dir, "settlements", "Jul 25")
    assert segment_days(merged) == (day("2025-05-05"), day("2025-06-06"))
    again, sent = count_requests(
        em, lambda: client.settlements(curve, "2025-05-05", "2025-06-06", ["Jul 25"])
    )
    assert sent.total == 0, sent
    assert_same_table(again, whole, "merged")
    assert_same_table(
        whole,
        client.settlements(curve, "2025-05-05", "2025-06-06", ["Jul 25"], cache="off"),
        "merged",
    )


def test_two_services_on_one_folder_never_mix(cache_dir, curve):
    with (
        start_emulator() as a,
        start_emulator() as b,
    ):
        one, two = a.client(cache_dir=cache_dir), b.client(cache_dir=cache_dir)
        assert one.cache_info()["dir"] != two.cache_info()["dir"]
        one.settlements(curve, *APRIL_MAY, TWO)
        _, sent = count_requests(b, lambda: two.settlements(curve, *APRIL_MAY, TWO))
        assert sent.settlements == len(TWO), f"b was served a's cache: {sent}"
        two.clear_cache()
        _, sent = count_requests(a, lambda: one.settlements(curve, *APRIL_MAY, TWO))
        assert sent.total == 0, f"clearing b's cache touched a's: {sent}"


def test_two_accounts_on_one_folder_never_mix(em, client, cache_dir, curve):
    full = em.client(cache_dir=cache_dir, **FULL)
    assert full.cache_info()["dir"] != client.cache_info()["dir"]
    client.settlements(curve, *APRIL_MAY, TWO)
    _, sent = count_requests(em, lambda: full.settlements(curve, *APRIL_MAY, TWO))
    assert sent.settlements == len(TWO), f"one account was served another's cache: {sent}"
    with pytest.raises(mc.CacheMiss):
        full.settlements(curve, "2025-03-01", "2025-03-31", TWO, cache="offline")


def test_the_cache_folder_names_its_service_and_keeps_no_secret(em, client, cache_dir, curves):
    _fill(client, curves)
    token = em.token()
    with em.client(cache_dir=cache_dir, token=token) as by_token:
        by_token.settlements(curves.coarse, *APRIL_MAY, TWO)
    note = (Path(client.cache_info()["dir"]) / "service.json").read_text()
    assert em.base_url in note and em.credentials["email"] in note
    secrets = [em.credentials["password"].encode(), token.encode(), token.split(".")[2].encode()]
    for path in _files_under(cache_dir):
        data = path.read_bytes()
        assert not any(s in data for s in secrets), f"{path} holds a secret"


def test_a_login_and_a_token_of_one_account_share_its_cache(em, client, cache_dir, curve):
    client.settlements(curve, *APRIL_MAY, TWO)
    with em.client(cache_dir=cache_dir, token=em.token()) as by_token:
        assert by_token.cache_info()["dir"] == client.cache_info()["dir"]
        _, sent = count_requests(em, lambda: by_token.settlements(curve, *APRIL_MAY, TWO))
    assert sent.settlements == 0, sent
