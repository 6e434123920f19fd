"""The window's language (issue 19): ``_("Open…")`` and ``_("{n} GPUs", n=3)`` in every widget.

The window speaks one language at a time, chosen when it starts (the ``ui/language`` preference,
else the system locale), as Qt's own installed translators do; a change in the preferences takes
effect at the next start. The texts come from the same gettext catalogs as the findings and the
command line (``rigbuilder/locale/<lang>/LC_MESSAGES/*.po``, read by ``rigbuilder.domain.i18n``);
``scripts/i18n.py extract`` collects every ``_(...)``, ``T(...)``, ``tr(...)`` and ``N_(...)``.

A text made at import time (a module constant, a class attribute) is marked ``N_("...")`` and
passed through ``_()`` where it is shown, so it follows the language chosen later.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from rigbuilder.domain.i18n import N_, T, nT, render  # noqa: F401 (N_ re-exported for the UI modules)

_language = "en"


def set_ui_language(lang: str) -> None:
    """Called once when the app starts (and by tests); ``lang`` as ``choose_language`` returns it."""
    global _language
    _language = lang or "en"


def ui_language() -> str:
    return _language


def _(template: str, /, **params: Any) -> str:
    """``template`` in the window's language, its ``{figures}`` formatted for the locale."""
    return render(T(template, **params), _language)


def n_(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """A counted text in the window's language, in the form its plural rule gives for ``n``
    (``ngettext``: ``n_("{n} GPU", "{n} GPUs", 3)``)."""
    return render(nT(singular, plural, n, **params), _language)


def render_ui(text: str) -> str:
    """A core text (a ``T``: a finding, an edit's description, a model's note) in the window's
    language; a plain string as it is. Bidirectional controls in it (a part's name) are shown
    as visible marks (``domain.safeio.display_text``)."""
    from rigbuilder.domain.safeio import display_text

    return display_text(render(text, _language), one_line=False)


def close_quotation(cut: str) -> str:
    """A text cut short (a price line's source, quoted in the window's language by
    ``domain.pricenotes.quoted``) with its quotation closed when the cut fell inside it."""
    from rigbuilder.domain.pricenotes import quoted

    opening, _sep, closing = render(quoted("\0"), _language).partition("\0")  # the language's marks
    if opening and cut.count(opening) > cut.count(closing):
        return cut + closing
    return cut


@contextmanager
def ui_language_set(lang: str) -> Iterator[None]:
    """For tests: the window's language is ``lang`` inside the block."""
    old = _language
    set_ui_language(lang)
    try:
        yield
    finally:
        set_ui_language(old)
