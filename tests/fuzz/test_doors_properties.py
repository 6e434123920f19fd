"""Property tests of the doors hostile input comes in by (tests/fuzz/doors.py): whatever a build
file, a parts list, a price file, an exchange-rate file, a cluster file or the arguments of
``price set`` and ``lab price``/``lab stock`` hold, the command ends in an answer (standard JSON
where it prints JSON) or a message, never a traceback.

A few examples per door, drawn by hypothesis the same way every run (the suite's derandomized
profile, tests/conftest.py) and shrunk to the smallest failing input when one fails. The long
campaign over the same doors and mutations: ``python benchmarks/fuzz.py --minutes 20``
(docs/fuzzing.md)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import doors

EXAMPLES = 8
"""Examples of the agreement test (each door's own count: ``doors.Campaign.examples``; one example is
one or two commands run in-process, about 0.3 to 3 s)."""


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    return doors.make_seeds(tmp_path_factory.mktemp("fuzz-seeds"))


def _settings(examples: int = EXAMPLES):
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.parametrize("campaign", doors.CAMPAIGNS, ids=[c.name for c in doors.CAMPAIGNS])
def test_every_door_answers_or_refuses_never_crashes(campaign, seeds, tmp_path):
    @_settings(campaign.examples)
    @given(st.randoms(use_true_random=False))
    def check(rng):
        outcome = campaign.door(campaign.draw(rng, seeds), seeds.folder)
        assert outcome in ("ok", "refused")

    check()


@_settings()
@given(amount=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-10 ** 500,
                                                                                    max_value=10 ** 500)),
       currency=st.sampled_from(["USD", "XYZ", "usd", "EURO", "", "€"]),
       date=st.one_of(st.dates().map(str), st.sampled_from(["2024-02-30", "2026-13", "2026-02", "", "x"])))
def test_price_set_and_price_import_agree_on_every_amount_currency_and_date(amount, currency, date, seeds):
    """The same checks at both doors: a price set refuses exactly what a price import refuses."""
    import json

    args = (doors.FE, repr(amount) if isinstance(amount, float) else str(amount), currency, date)
    by_set = doors.price_set(args, seeds.folder)
    f = seeds.folder / "one.json"
    f.write_text(json.dumps([{"part": doors.FE, "amount": args[1], "currency": currency, "date": date}]))
    from rigbuilder.cli import main
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(["price", "import", str(f), "--dry-run", "--json"])
    assert rc in (0, 1)
    imported = json.loads(out.getvalue())["rows"][0]["matched"]
    assert (by_set == "ok") == imported, (args, by_set)
