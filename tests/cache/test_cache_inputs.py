"""Bad cache arguments raise ``InvalidRequest`` naming the argument before
anything is sent or written; ``$MARKETCURVES_CACHE_DIR`` is the folder when
none is given."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from cache_helpers import TWO, YESTERDAY, Requests, count_requests, segment_files

import marketcurves as mc

MODES = '"use", "refresh", "offline" or "off"'


def _calls(client: mc.Client, curve: str, **kw) -> dict:
    """Every call that takes ``cache=``, blocking and awaitable."""
    history = (curve, "2025-06-09", YESTERDAY, TWO)
    return {
        "settlements": lambda: client.settlements(*history, **kw),
        "intraday_history": lambda: client.intraday_history(*history, **kw),
        "catalogue": lambda: client.catalogue(**kw),
        "settlements_async": lambda: asyncio.run(client.settlements_async(*history, **kw)),
        "intraday_history_async": lambda: asyncio.run(
            client.intraday_history_async(*history, **kw)
        ),
        "catalogue_async": lambda: asyncio.run(client.catalogue_async(**kw)),
    }


def test_a_cache_dir_that_is_a_file_or_inside_one_is_refused(em, tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("not a folder")
    for path in (file, file / "cache"):
        with Requests(em) as sent, pytest.raises(mc.InvalidRequest, match="cache_dir") as caught:
            em.client(cache_dir=path)
        assert sent.total == 0, sent
        assert str(file) in str(caught.value)
    assert file.read_text() == "not a folder"


def test_a_cache_dir_that_cannot_be_written_is_refused(em, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into any folder, whatever its mode")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        for path in (locked, locked / "cache"):
            with Requests(em) as sent, pytest.raises(mc.InvalidRequest, match="cache_dir"):
                em.client(cache_dir=path)
            assert sent.total == 0, sent
        assert not (locked / "cache").exists()
    finally:
        locked.chmod(0o700)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")
def test_a_cache_dir_where_nothing_can_be_made_is_refused_before_any_request(em):
    # /proc: the system tells root it may write there, and refuses any file.
    with Requests(em) as sent, pytest.raises(mc.InvalidRequest, match=r"cache_dir.*not writable"):
        em.client(cache_dir="/proc/marketcurves-cache")
    assert sent.total == 0, sent


def test_blank_and_mistyped_cache_dirs_are_refused(em):
    for bad in ("", "   ", 42):
        with pytest.raises(mc.InvalidRequest, match="cache_dir"):
            em.client(cache_dir=bad)


def test_an_unknown_mode_is_refused_on_the_client_and_per_call(em, client, cache_dir, curve):
    for bad in ("sometimes", "", "USE!"):
        with pytest.raises(mc.InvalidRequest, match="cache") as caught:
            em.client(cache_dir=cache_dir, cache=bad)
        if bad.strip():
            assert MODES in str(caught.value), caught.value
    with pytest.raises(mc.InvalidRequest, match="cache"):
        em.client(cache_dir=cache_dir, cache=None)

    for name, call in _calls(client, curve, cache="never").items():
        with Requests(em) as sent, pytest.raises(mc.InvalidRequest) as caught:
            call()
        assert sent.total == 0, (name, sent)
        assert "cache" in str(caught.value) and "never" in str(caught.value), (name, caught.value)
        assert MODES in str(caught.value), (name, caught.value)
    for call in _calls(client, curve, cache=1).values():
        with pytest.raises(mc.InvalidRequest, match="cache"):
            call()
    assert not cache_dir.exists(), "a refused call wrote to the cache"


def test_modes_other_than_off_need_a_cache_dir(em, curve):
    plain = em.client()
    for mode in ("use", "refresh", "offline"):
        for name, call in _calls(plain, curve, cache=mode).items():
            with Requests(em) as sent, pytest.raises(mc.InvalidRequest, match="cache_dir"):
                call()
            assert sent.total == 0, (mode, name, sent)
    for call in (
        plain.cache_info,
        plain.clear_cache,
        lambda: asyncio.run(plain.cache_info_async()),
        lambda: asyncio.run(plain.clear_cache_async()),
    ):
        with Requests(em) as sent, pytest.raises(mc.InvalidRequest, match="cache_dir"):
            call()
        assert sent.total == 0, sent
    # "off" asks for no cache: allowed without one.
    assert plain.settlements(curve, "2025-06-09", YESTERDAY, TWO, cache="off").num_rows > 0


def test_the_cache_dir_is_made_when_first_written(em, cache_dir, curve):
    client = em.client(cache_dir=cache_dir)
    assert not cache_dir.exists()
    client.settlements(curve, "2025-06-09", YESTERDAY, TWO)
    assert segment_files(cache_dir, "settlements")


def test_the_cache_dir_comes_from_the_environment(em, tmp_path, monkeypatch, curve):
    from_env = tmp_path / "from-env"
    monkeypatch.setenv("MARKETCURVES_CACHE_DIR", str(from_env))
    client = em.client()
    assert Path(client.cache_info()["dir"]).parent.parent == from_env
    client.settlements(curve, "2025-06-09", YESTERDAY, TWO)
    assert len(segment_files(from_env, "settlements")) == len(TWO)
    _, sent = count_requests(em, lambda: client.settlements(curve, "2025-06-09", YESTERDAY, TWO))
    assert sent.total == 0, sent

    # An explicit folder wins; a blank variable is no cache.
    explicit = tmp_path / "explicit"
    assert Path(em.client(cache_dir=explicit).cache_info()["dir"]).parent.parent == explicit
    monkeypatch.setenv("MARKETCURVES_CACHE_DIR", "  ")
    with pytest.raises(mc.InvalidRequest, match="cache_dir"):
        em.client().cache_info()


def test_a_relative_cache_dir_is_kept_where_it_was_given(em, tmp_path, monkeypatch, curve):
    monkeypatch.chdir(tmp_path)
    client = em.client(cache_dir="relative")
    monkeypatch.chdir("/")
    client.settlements(curve, "2025-06-09", YESTERDAY, TWO)
    info = client.cache_info()
    assert Path(info["dir"]).is_absolute()
    assert segment_files(tmp_path / "relative", "settlements")
