"""argparse's own words ("usage:", "error:", "the following arguments are required", "options", the
-h help) in the command line's language.

argparse looks its texts up with ``gettext`` in the ``argparse`` domain, which no system ships in
our languages; here they are marked ``N_`` so they sit in our catalogs (``cli.po``) with the rest of
the command line, and :func:`argparse_speaks` points argparse's lookup at them while a command's
line is parsed and its help printed.
"""
from __future__ import annotations

import argparse
from contextlib import contextmanager
from typing import Iterator

from rigbuilder.domain.i18n import N_, gettext

TEXTS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("not allowed with argument %s"),
    N_("the following arguments are required: %s"), N_("one of the arguments %s is required"),
    N_("expected one argument"), N_("expected at most one argument"), N_("expected at least one argument"),
    N_("expected %s argument"), N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("%(prog)s: error: %(message)s\n"),
    N_("can't open '%(filename)s': %(error)s"), N_("ignored explicit argument %r"),
)
"""Every text of argparse's a user of rigbuilder can meet (Python 3.11-3.13's wording)."""


@contextmanager
def argparse_speaks(lang: str) -> Iterator[None]:
    """Inside the block argparse's own texts are in ``lang`` (English as argparse writes them)."""
    if lang == "en":
        yield
        return
    old = argparse._, argparse.ngettext
    argparse._ = lambda text: gettext(text, lang)
    argparse.ngettext = lambda one, many, n: gettext(one if n == 1 else many, lang)
    try:
        yield
    finally:
        argparse._, argparse.ngettext = old
