import datetime as dt
import pickle

import pytest

import marketcurves as mc


@pytest.mark.parametrize(
    ("name", "kind", "start", "end"),
    [
        ("Jan 25", "month", dt.date(2025, 1, 1), dt.date(2025, 1, 31)),
        ("Q3 26", "quarter", dt.date(2026, 7, 1), dt.date(2026, 9, 30)),
        ("1-5 Jan 25", "window", dt.date(2025, 1, 1), dt.date(2025, 1, 5)),
        ("16-20 Nov 25", "window", dt.date(2025, 11, 16), dt.date(2025, 11, 20)),
        ("26-EOM Feb 24", "window", dt.date(2024, 2, 26), dt.date(2024, 2, 29)),
        ("26-EOM Feb 25", "window", dt.date(2025, 2, 26), dt.date(2025, 2, 28)),
        ("C 00", "continuous", None, None),
        ("C 02", "continuous", None, None),
        ("Cal-26", "other", None, None),
        ("H1 Jan 25", "other", None, None),
    ],
)
def test_parse_gives_kind_and_dates(name, kind, start, end):
    tenor = mc.Tenor.parse(name)
    assert (tenor.kind, tenor.start, tenor.end) == (kind, start, end)
    assert str(tenor) == tenor.name == name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Q5 24", "Q1 to Q4"),
        ("3-7 Jan 24", "not a 5-day window"),
        ("32-EOM Jan 24", "not a 5-day window"),
    ],
)
def test_impossible_values_raise_invalid_request_with_the_reason(name, reason):
    with pytest.raises(mc.InvalidRequest, match=reason) as caught:
        mc.Tenor.parse(name)
    assert name in str(caught.value)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(mc.InvalidRequest):
        mc.Tenor(name)


@pytest.mark.parametrize(
    "name", ["Cal 27", "H1 27", "Win 26", "Sum 26", "Foo 24", "1-5 Foo 24", "3-7 Foo 24"]
)
def test_shapes_the_interface_does_not_show_are_other(name):
    # The feed carries years, cycles, half-months, decades and delivery
    # windows whose formats are not shown: none of them may raise, and a
    # three-letter word that is not a month is such a shape, not a misspelling.
    tenor = mc.Tenor.parse(name)
    assert (tenor.kind, tenor.start, tenor.end) == ("other", None, None)
    assert str(tenor) == name
    assert mc.Tenor(name).kind == "other"


def test_lenient_parse_keeps_the_name_as_other():
    tenor = mc.Tenor.parse("Q5 24", strict=False)
    assert tenor.kind == "other"
    assert tenor.start is None
    assert str(tenor) == "Q5 24"


def test_tenors_sort_in_calendar_order():
    names = [
        "Q2 25",
        "Feb 25",
        "zz",
        "6-10 Jan 25",
        "C 01",
        "Q1 25",
        "Jan 25",
        "1-5 Jan 25",
        "C 00",
    ]
    ordered = [str(t) for t in sorted(mc.Tenor.parse(n) for n in names)]
    assert ordered == [
        "C 00",
        "C 01",
        "1-5 Jan 25",
        "Jan 25",
        "Q1 25",
        "6-10 Jan 25",
        "Feb 25",
        "Q2 25",
        "zz",
    ]
    by_key = sorted(names, key=lambda n: mc.Tenor.parse(n).sort_key)
    assert by_key == ordered
    assert mc.Tenor("Jan 25") < mc.Tenor("Feb 25") <= mc.Tenor("Feb 25")
    assert mc.Tenor("Dec 25") > mc.Tenor("Q4 25") >= mc.Tenor("Oct 25")


def test_equality_and_hash_follow_the_name():
    jan = mc.Tenor("Jan 25")
    assert jan == mc.Tenor("Jan 25")
    assert jan == "Jan 25"
    assert jan != "Feb 25"
    assert jan != mc.Tenor("JAN 25")
    assert hash(jan) == hash("Jan 25")
    assert {jan: 1}["Jan 25"] == 1
    assert len({mc.Tenor("Jan 25"), mc.Tenor("Jan 25"), mc.Tenor("Feb 25")}) == 2
    with pytest.raises(TypeError):
        jan < "Feb 25"  # noqa: B015


def test_repr_and_pickle():
    assert (
        repr(mc.Tenor("Q1 25"))
        == "Tenor('Q1 25', kind='quarter', start=2025-01-01, end=2025-03-31)"
    )
    assert repr(mc.Tenor("C 00")) == "Tenor('C 00', kind='continuous')"
    for name in ["Jan 25", "C 01", "whatever"]:
        tenor = mc.Tenor.parse(name)
        again = pickle.loads(pickle.dumps(tenor))
        assert again == tenor and again.kind == tenor.kind
    odd = pickle.loads(pickle.dumps(mc.Tenor.parse("Q5 24", strict=False)))
    assert odd.kind == "other"


def test_non_string_names_are_invalid_requests_naming_the_argument():
    # As for every argument of the package: InvalidRequest, not TypeError.
    with pytest.raises(mc.InvalidRequest, match="name must be a str, not int"):
        mc.Tenor.parse(25)  # type: ignore[arg-type]


def test_help_describes_the_class_and_what_it_offers():
    # Tenor is the core's own class, with no Python wrapper: help() shows the
    # core's docstrings, which say what it is in the user's terms.
    import pydoc

    shown = pydoc.render_doc(mc.Tenor, renderer=pydoc.plaintext)
    assert "A contract period (tenor) name, parsed." in shown
    for member in ("parse", "range", "name", "kind", "start", "end", "sort_key"):
        assert getattr(mc.Tenor, member).__doc__, f"{member} has no docstring"
    assert "_args" not in shown, "an implementation note in the user's help"
