"""``marketcurves backfill``: a lake's history by curve or by vertical, the
same values as ``Client.backfill``, and usage errors before anything is sent."""

from __future__ import annotations

from cli_helpers import FIRST, LAST, UNKNOWN_ID, environment, ok, one_line_error, run_cli

import marketcurves as mc
from marketcurves import cli


def _values(dest):
    table = mc.read_ticks(dest)
    return sorted(zip(table["tenor"].to_pylist(), table["generated_on"].to_pylist(), strict=True))


def test_backfill_of_a_curve_writes_what_the_client_writes(env, client, curve, tmp_path):
    tenor = next(t for t in curve.contracts if not t.startswith("C "))
    args = ["--curve", curve.id, "--tenor", tenor, "--start", FIRST, "--end", LAST]
    result = run_cli(["backfill", "--dest", str(tmp_path / "cli"), *args], env)
    ok(result)
    assert "tenor-days complete" in result.stderr
    client.backfill(tmp_path / "api", [(curve.id, tenor)], FIRST, LAST)
    assert _values(tmp_path / "cli") == _values(tmp_path / "api") != []
    again = run_cli(["backfill", "--dest", str(tmp_path / "cli"), *args], env)
    assert "from 0 requests" in ok(again) + again.stderr


def test_backfill_of_a_vertical_takes_each_of_its_curves(env, client, tmp_path):
    jet = client.catalogue(vertical="Jet", quotation="Fob")
    args = ["--vertical", "Jet", "--quotation", "Fob", "--start", LAST, "--end", LAST]
    ok(run_cli(["backfill", "--dest", str(tmp_path), *args], env))
    curves = set(mc.read_ticks(tmp_path)["curve_id"].to_pylist())
    assert curves and curves <= {c.id for c in jet}


def test_a_vertical_passes_over_a_curve_listed_without_an_id(
    env, client, tmp_path, monkeypatch, capsys
):
    # The service may leave a curve's id out (Curve.id is then None); the
    # emulator never does, so its catalogue gets one here, in this process.
    listed = mc.Client.catalogue
    no_id = mc.Curve(id=None, name="Jet Fob NOWHERE", quotation="Fob", units="$/mt")

    def with_no_id(self, *args, **kwargs):
        return mc.Catalogue([*listed(self, *args, **kwargs), no_id])

    monkeypatch.setattr(mc.Client, "catalogue", with_no_id)
    for name, value in env.items():
        if name.startswith("MARKETCURVES_"):
            monkeypatch.setenv(name, value)
    jet = listed(client, vertical="Jet", quotation="Fob")
    tenor = min(set.intersection(*(set(c.contracts) for c in jet)), key=mc.Tenor)
    args = ["--vertical", "Jet", "--quotation", "Fob", "--tenor", tenor, "--start", LAST]
    assert cli.main(["backfill", "--dest", str(tmp_path), *args, "--end", LAST]) == 0
    err = capsys.readouterr().err
    assert "skipped 1 curve the catalogue lists without an id: Jet Fob NOWHERE" in err
    assert set(mc.read_ticks(tmp_path)["curve_id"].to_pylist()) == {c.id for c in jet}


def test_usage_errors_exit_2_and_bad_values_1(env, tmp_path):
    base = ["backfill", "--dest", str(tmp_path / "lake"), "--start", FIRST, "--end", LAST]
    both = run_cli([*base, "--curve", UNKNOWN_ID, "--vertical", "Jet"], env)
    assert both.returncode == 2 and "not allowed with" in both.stderr
    lone = run_cli([*base, "--curve", UNKNOWN_ID, "--quotation", "Fob"], env)
    assert lone.returncode == 2 and "--quotation goes with --vertical" in lone.stderr
    unknown = run_cli([*base, "--curve", UNKNOWN_ID], env)
    assert unknown.returncode == 1 and UNKNOWN_ID in unknown.stderr
    assert not (tmp_path / "lake").exists()


def test_a_vertical_skips_each_curve_outside_the_licence_and_finishes_the_others(
    fresh_em, tmp_path
):
    # The demo account's licence leaves out Sales; Margin goes out too.
    fresh_em.revoke_licence(quotation="Margin")
    with fresh_em.client() as client:
        oil = client.catalogue(vertical="Fuel Oil")
    outside = {c.id for c in oil if c.quotation in ("Margin", "Sales")}
    assert outside and len(outside) < len(oil)
    # One tenor every curve has, to keep the run short.
    tenor = min(set.intersection(*(set(c.contracts or []) for c in oil)), key=mc.Tenor)
    args = ["--vertical", "Fuel Oil", "--tenor", str(tenor), "--start", LAST, "--end", LAST]
    result = run_cli(["backfill", "--dest", str(tmp_path), *args], environment(fresh_em))
    ok(result)
    [skipped] = [line for line in result.stderr.splitlines() if line.startswith("skipped")]
    assert f"skipped {len(outside)} curves outside the account's licence" in skipped
    for curve in oil:
        assert (curve.id in skipped) == (curve.id in outside), curve.name
    written = set(mc.read_ticks(tmp_path)["curve_id"].to_pylist())
    assert written == {c.id for c in oil} - outside


def test_a_vertical_wholly_outside_the_licence_is_access_denied(fresh_em, tmp_path):
    fresh_em.revoke_licence()
    args = ["--vertical", "Jet", "--quotation", "Fob", "--start", LAST, "--end", LAST]
    result = run_cli(["backfill", "--dest", str(tmp_path), *args], environment(fresh_em))
    line = one_line_error(result, "AccessDenied")
    assert "every curve asked for is outside the account's licence" in line
