"""``rigbuilder lab`` with any text in its arguments (the fuzz campaign that found the
UnicodeEncodeError and the ValueError of issue 44, bounded): every run ends with exit 0 or a
one-line message (exit 2), never a traceback, and a refused change writes nothing."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rigbuilder.cli import main
from rigbuilder.commands.common import UsageError

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# what argv can carry: any text, and bytes that are not UTF-8 as lone surrogates (surrogateescape)
ARG = st.one_of(st.text(max_size=40), st.binary(min_size=1, max_size=20).map(os.fsdecode),
                st.sampled_from(["", " ", "-1", "1e309", "nan", "P\x00", "a\nb", "\u202e", "x" * 300]))


def _run(argv: list[str], capsys) -> int:
    try:
        rc = main(argv)
    except UsageError:  # pragma: no cover - main turns these into exit 2
        pytest.fail("UsageError escaped main")
    except SystemExit as exc:  # argparse: a value that looks like an option ("-x"); its usage text, exit 2
        out = capsys.readouterr()
        assert exc.code == 2 and "Traceback" not in out.err and "usage:" in out.err
        return 2
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    if rc == 2:
        assert out.err.strip().count("\n") == 0, out.err  # one line
    return rc


@FAST
@given(part=ARG, n=ARG, place=ARG)
@example(part="P", n="1", place="-x").via("argparse's own usage error")
@example(part="gpu-\udcff", n="\udc80", place="\udcfe").via("issue 44")
def test_lab_stock_with_any_arguments(tmp_path, capsys, part, n, place):
    db = str(tmp_path / "lab.sqlite")
    assert _run(["lab", "stock", "--db", db, "--add", part, n, "--place", place], capsys) in (0, 2)


@FAST
@given(part=ARG, currency=ARG, condition=ARG)
def test_lab_price_with_any_text_arguments(tmp_path, capsys, part, currency, condition):
    """The amount stays a plain number: its checks belong to the shared amount validator."""
    db = str(tmp_path / "lab.sqlite")
    assert _run(["lab", "price", "--db", db, "--set", part, "5", currency, "--condition", condition], capsys) in (0, 2)


@FAST
@given(user=ARG, secret=ARG, host=ARG, port=ARG, db=ARG)
def test_any_address_is_read_or_refused_and_never_shows_the_password(user, secret, host, port, db):
    """A malformed port raised ValueError; an "@" in the password printed its tail."""
    from rigbuilder.catalog.labdb import LabDbError, parse_url

    password = "Q7kZ" + secret
    try:
        url, pw = parse_url(f"postgresql://{user}:{password}@{host}:{port}/{db}")
    except LabDbError as exc:
        assert "Q7kZ" not in str(exc) and "\n" not in str(exc)
        str(exc).encode("utf-8")
        return
    assert "Q7kZ" not in url.display and "Q7kZ" not in url.key
