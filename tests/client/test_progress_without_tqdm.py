"""``progress=True`` without tqdm: the call goes on without bars and says
so once per process, with a warning that names the user's line and what to
install; it is never an error."""

from __future__ import annotations

import sys
import warnings

import pytest
from support import BULK_TIME_SCALE, start_emulator

import marketcurves as mc
from marketcurves import _progress


@pytest.fixture
def without_tqdm(monkeypatch: pytest.MonkeyPatch) -> None:
    # A module set to None in sys.modules cannot be imported.
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    monkeypatch.setattr(_progress, "_warned", False)


def test_one_warning_then_silence(without_tqdm, client, curve):
    args = (curve, "2025-06-02", "2025-06-06")
    with pytest.warns(UserWarning, match=r"tqdm, which is not installed") as caught:
        table = client.settlements(*args, tenors=["Jul 25"], progress=True)
    assert len(caught) == 1
    assert "marketcurves[progress]" in str(caught[0].message)
    assert caught[0].filename == __file__, "the warning names the line that asked"
    assert table.equals(client.settlements(*args, tenors=["Jul 25"], progress=False))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client.intraday_history(*args, tenors=["Jul 25"], progress=True)


def test_bulk_download_warns_once_too(without_tqdm, tmp_path):
    # A fast clock: the bulk jobs end at once.
    with start_emulator(time_scale=BULK_TIME_SCALE) as em, em.client() as client:
        with pytest.warns(UserWarning, match=r"tqdm") as caught:
            first = client.bulk_download("JET", "2024-03", "2024-03", tmp_path / "a", progress=True)
        assert [w.filename for w in caught] == [__file__]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            again = client.bulk_download("JET", "2024-03", "2024-03", tmp_path / "b", progress=True)
    assert first.rows == again.rows > 0


def test_no_warning_when_no_progress_is_asked_for(without_tqdm, client, curve):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client.settlements(curve, "2025-06-02", "2025-06-06", tenors=["Jul 25"])


@pytest.fixture
def curve(client: mc.Client) -> mc.Curve:
    return next(
        c
        for c in client.catalogue(vertical="Jet")
        if c.quotation != "Sales" and "Jul 25" in c.contracts
    )
