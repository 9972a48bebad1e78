"""``--max-requests`` on ``marketcurves history`` and ``backfill``: a pull
whose plan needs more requests fails (exit 1, ``BudgetExceeded``) before
sending them, and one within the budget runs."""

from __future__ import annotations

from cli_helpers import ok, run_cli

FIRST, LAST = "2025-06-09", "2025-06-12"


def test_history_over_its_budget_sends_nothing(em, env, client, curve):
    client.settlements(curve, FIRST, FIRST, "Jul 25")  # the emulator has served a catalogue
    before = em.request_count("/historical/settlements")
    pull = ["history", curve.id, FIRST, LAST, "--tenor", "Jul 25", "--tenor", "Aug 25"]
    refused = run_cli([*pull, "--max-requests", "2"], env)
    assert refused.returncode == 1, refused.stderr
    assert "BudgetExceeded" in refused.stderr and "max_requests=2" in refused.stderr
    assert em.request_count("/historical/settlements") == before
    assert ok(run_cli([*pull, "--max-requests", "3"], env))
    assert em.request_count("/historical/settlements") == before + 2


def test_backfill_over_its_budget_writes_nothing(em, env, curve, tmp_path):
    lake = tmp_path / "lake"
    before = em.request_count("/historical/intraday")
    backfill = ["backfill", "--dest", str(lake), "--curve", curve.id, "--tenor", "Jul 25"]
    refused = run_cli([*backfill, "--start", FIRST, "--end", LAST, "--max-requests", "1"], env)
    assert refused.returncode == 1, refused.stderr
    assert "BudgetExceeded" in refused.stderr
    assert em.request_count("/historical/intraday") == before
    assert not list(lake.rglob("*.parquet"))


def test_a_negative_budget_is_a_usage_error(env, curve):
    result = run_cli(["history", curve.id, FIRST, LAST, "--max-requests", "-1"], env)
    assert result.returncode == 2
    assert "--max-requests" in result.stderr
