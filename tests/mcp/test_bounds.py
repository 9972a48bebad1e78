"""What the server refuses and what it never shows: a call over the request
budget sends nothing (the emulator counts), a repeated question is served
by the cache, bad input is a tool error naming the close names (and the
server goes on), and no secret or local path is anywhere in the transcript,
stdout and stderr alike."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cache"))

from cache_helpers import count_requests
from mcp_helpers import STORE_SECRET

JET = "Jet Fob AG"


def test_a_call_over_the_budget_is_refused_before_any_request(session, em):
    args = {
        "curve": JET,
        "start": "2023-06-01",
        "end": "2025-06-12",
        "tenors": ["Jul 25", "Aug 25", "Sep 25"],
        "intraday": True,
    }
    session.ok("describe_curve", {"curve": JET})  # the catalogue, kept
    message, sent = count_requests(em, lambda: session.error("price_history", args))
    assert sent.total == 0, sent
    assert "refused" in message and "more than this server's limit of 50" in message, message
    # Three tenors, one request each per 30 days of two years.
    needed = int(message.split(" needs ")[1].split()[0])
    assert 3 * 25 <= needed <= 3 * 27, message


def test_a_repeated_question_is_served_by_the_cache(session, em):
    args = {"curve": JET, "start": "2025-05-01", "end": "2025-06-12", "tenors": ["Jul 25"]}
    first = session.ok("price_history", args)
    again, sent = count_requests(em, lambda: session.ok("price_history", args))
    assert sent.total == 0, sent
    assert again == first


def test_bad_input_names_the_problem_and_the_close_names(session):
    cases = [
        ("describe_curve", {"curve": "Jet Fob AGG"}, ["unknown curve", "'Jet Fob AG'"]),
        (
            "price_history",
            {"curve": JET, "start": "2025-06-02", "end": "2025-06-12", "tenors": ["Jul25"]},
            ["unknown tenor", "'Jul 25'"],
        ),
        (
            "price_history",
            {"curve": JET, "start": "2025-06-12", "end": "2025-06-02", "tenors": ["Jul 25"]},
            ["impossible range", "before start"],
        ),
        (
            "price_history",
            {"curve": JET, "start": "2025-13-01", "end": "2025-06-02", "tenors": ["Jul 25"]},
            ["not a day", "YYYY-MM-DD"],
        ),
        ("forward_curve", {"curve": JET, "dates": "2025-06-12"}, ["unknown argument", "'date'"]),
        ("forward_curve", {"curve": JET, "kinds": ["months"]}, ["not one of", "'month'"]),
        ("find_curves", {"query": "jet", "limit": "3"}, ["limit must be an integer"]),
        ("build_curve", {"curve": JET}, ["'date' is required"]),
        ("find_curves", {"query": "zzqx"}, ["no curve matches"]),
        ("price_histroy", {"curve": JET}, ["unknown tool", "'price_history'"]),
    ]
    for name, args, expected in cases:
        message = session.error(name, args)
        for part in expected:
            assert part in message, (name, args, message)
    # The server went on.
    assert session.ok("describe_curve", {"curve": JET})["name"] == JET


def test_a_secret_given_as_input_is_not_echoed(session, env):
    message = session.error("describe_curve", {"curve": env["MARKETCURVES_TOKEN"]})
    assert env["MARKETCURVES_TOKEN"] not in message and "[redacted]" in message


def test_no_secret_or_path_in_the_transcript_or_the_logs(session, env, server_dir):
    # Last in the module: it scans what every test before it received.
    session.ok("find_curves", {"query": "jet"})
    stderr = (server_dir / "stderr.txt").read_text()
    assert "find_curves" in stderr  # calls are logged, on stderr
    whole = "\n".join(session.transcript) + "\n" + stderr
    secrets = {
        "token": env["MARKETCURVES_TOKEN"],
        "password": env["MARKETCURVES_PASSWORD"],
        "store secret": STORE_SECRET,
        "cache path": env["MARKETCURVES_CACHE_DIR"],
        "temporary folder": env["TMPDIR"],
        "test folder": str(server_dir),
    }
    for what, secret in secrets.items():
        assert secret not in whole, f"the {what} shows"
