"""Translatable texts, Qt-free: the core writes English, every door renders in the reader's language.

A rule builds its text as ``T("Peak load {load:.0f} W ...", load=dc)``: a ``str`` whose value is
the English text (so everything that compares, sorts or prints findings keeps working unchanged)
and which remembers its template and figures. A door (the CLI, the window, a report) calls
``render(text, lang)`` (or ``render_finding``): the template is looked up in the language's
gettext catalog (``rigbuilder/locale/<lang>/LC_MESSAGES/rigbuilder.po``, read with Babel, no
compiled files needed) and the figures are formatted for the locale with Babel (numbers,
money). English is rendered exactly as the f-strings always were.

The language: ``--lang`` / the ``language`` preference if given, else the system locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); anything unknown falls back to English.
"""
from __future__ import annotations

import os
import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français", "ja": "日本語",
                             "zh_CN": "简体中文"}
"""The languages with a catalog (and English, the source), each named in itself: the one list of
languages (the window's language menu, Qt's number format, the catalog tool read it)."""
SOURCE_LANGUAGE = "en"
TRANSLATED: tuple[str, ...] = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)
"""The languages with a catalog of their own (``rigbuilder/locale/<lang>``)."""
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "en": (2, "(n != 1)"), "de": (2, "(n != 1)"), "fr": (2, "(n > 1)"), "ja": (1, "0"), "zh_CN": (1, "0"),
}
"""Each language's gettext plural rule (the ``Plural-Forms`` header its catalogs carry): how many forms a
counted text has and which one a count takes. French: 0 and 1 singular (the gettext manual's rule, not
CLDR's third form for millions); Japanese and Chinese: one form."""
DOMAIN = "rigbuilder"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def normalize(tag: Optional[str]) -> Optional[str]:
    """'de_DE.UTF-8' -> 'de', 'zh_CN.utf8' -> 'zh_CN', 'ja' -> 'ja', 'C' -> 'en'; None if unknown."""
    if not tag:
        return None
    t = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not t:
        return None
    if t in ("C", "POSIX"):
        return "en"
    lang, _, region = t.partition("_")
    lang = lang.lower()
    if lang == "zh":
        # Simplified Chinese is what we have: mainland China and Singapore read it; zh alone too.
        return "zh_CN" if region.upper() in ("", "CN", "SG") or region.lower() == "hans" else None
    return lang if lang in LANGUAGES else None


def system_language(env: Optional[Mapping[str, str]] = None) -> str:
    """The language the system locale asks for, as gettext reads it; English when none is ours."""
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        val = env.get(var)
        if not val:
            continue
        if var == "LANGUAGE":  # a priority list: the first language we have wins
            for item in val.split(":"):
                got = normalize(item)
                if got:
                    return got
            continue
        return normalize(val) or "en"
    return "en"


def choose_language(explicit: Optional[str] = None, setting: Optional[str] = None,
                    env: Optional[Mapping[str, str]] = None) -> str:
    """``--lang`` first, then the preference (``""`` or ``"system"`` = follow the system), then the
    system locale. An unknown language falls back to English without an error."""
    for choice in (explicit, setting):
        if choice and choice != "system":
            return normalize(choice) or "en"
    return system_language(env)


# --------------------------------------------------------------------------- texts and figures

def money(amount: Optional[float], currency: Optional[str]) -> str:
    """'1,234.50 EUR'; JPY has no minor unit so no decimals; ``None`` reads 'price unknown'.
    (Here rather than in ``domain.money``, which imports this module, so the two make no circle.)"""
    if amount is None:
        return "price unknown"
    if currency == "JPY":
        return f"{amount:,.0f} JPY"
    return f"{amount:,.2f} {currency or ''}".strip()


@dataclass(frozen=True)
class Money:
    """An amount of money as a placeholder: English reads '1,234.50 EUR' (:func:`money`),
    other languages the locale's currency format (Babel's format_currency)."""

    amount: Optional[float]
    currency: Optional[str]
    plain: bool = False  # English '1234.50 EUR' (two decimals, no grouping) where a door always wrote it so

    def __format__(self, spec: str) -> str:
        if self.plain and self.amount is not None:
            return f"{self.amount:.2f} {self.currency or ''}".strip()
        return money(self.amount, self.currency)


@dataclass(frozen=True)
class Num:
    """A number as English has always written it (``text``, e.g. an exchange rate '0.9523'); other
    languages get the same decimals in the locale's format ('0,9523')."""

    value: float
    text: str

    def __format__(self, spec: str) -> str:
        return self.text


@dataclass(frozen=True)
class Day:
    """A date as English has always written it (ISO: '2025-02-25'); other languages get the
    locale's medium form ('25.02.2025', '2025/02/25', '25 févr. 2025'). A partial date ('2025-02')
    stays as it is."""

    iso: str

    def __format__(self, spec: str) -> str:
        return self.iso


@dataclass(frozen=True)
class Month:
    """A month (``iso``: '2025-07') as English writes it where it stands (``text``: '2025-07' or
    'October 2023'); other languages get the locale's month and year ('Juli 2025', '2025年7月')."""

    iso: str
    text: str

    def __format__(self, spec: str) -> str:
        return self.text


class T(str):
    """English text that remembers its msgid (``template``) and figures (``params``).

    Concatenating two texts (``LIMITS + T(" More.")``) keeps both translatable. A param may be
    another ``T`` (a clause built elsewhere), a ``Money``, a number (formatted by the spec in the
    template) or a plain string (a part name, a slot id: not translated).
    """

    template: str
    params: dict[str, Any]
    parts: tuple["T", ...]
    plural: str = ""  # a counted text (``nT``): the English plural; ``params["n"]`` picks the form

    def __new__(cls, template: str, /, **params: Any) -> "T":
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        self.parts = ()
        return self

    @classmethod
    def join(cls, *parts: str) -> "T":
        texts = tuple(p if isinstance(p, T) else T.verbatim(p) for p in parts)
        self = super().__new__(cls, "".join(texts))
        self.template = ""
        self.params = {}
        self.parts = texts
        return self

    @classmethod
    def verbatim(cls, text: str) -> "T":
        """A text that is not translated (a name, a list of slot ids)."""
        self = super().__new__(cls, text)
        self.template = ""
        self.params = {}
        self.parts = (self,)
        return self

    def __add__(self, other: str) -> "T":  # type: ignore[override]
        if not isinstance(other, str):
            return NotImplemented
        return T.join(self, other)

    def __radd__(self, other: str) -> "T":
        if not isinstance(other, str):
            return NotImplemented
        return T.join(other, self)

    def __reduce__(self):  # pickles/copies as the plain English text would, plus what renders it
        return (_rebuild, (str(self), self.template, self.params, self.parts, self.plural))


def nT(singular: str, plural: str, n: int, /, **params: Any) -> T:
    """A counted text (``ngettext``): ``nT("{n} part", "{n} parts", 3)``. English takes the singular
    for 1 and the plural otherwise; a door renders it with the form its language's rule
    (:data:`PLURAL_FORMS`) gives for ``n``. ``n`` is a placeholder too."""
    params = {"n": n, **params}
    self = T(singular if n == 1 else plural, **params)
    self.template, self.plural = singular, plural
    return self


def interleave(items: Iterable[str], sep: str) -> list[str]:
    """``items`` with ``sep`` between them, for ``T.join(*interleave(names, ", "))``: each item
    stays translatable (a ``T`` is kept as it is), the separator is written as it stands."""
    out: list[str] = []
    for i, x in enumerate(items):
        if i:
            out.append(sep)
        out.append(x)
    return out


def _rebuild(text: str, template: str, params: dict, parts: tuple, plural: str = "") -> T:
    self = str.__new__(T, text)
    self.template, self.params, self.parts = template, params, parts
    if plural:
        self.plural = plural
    return self


def N_(template: str) -> str:
    """Marks a plain string constant for extraction; render it with ``gettext(template, lang)``."""
    return template


# --------------------------------------------------------------------------- catalogs

def po_path(lang: str, area: str = DOMAIN) -> Path:
    """The catalog of one area of the program (``rigbuilder`` = the checks and models; the window,
    the board, the tools, the command line and the reports each have their own file)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{area}.po"


PSEUDO = "qps"
"""A pseudo-language for tests: every catalogued text comes back as ⟦text⟧, so a text on screen
that is not wrapped was never looked up in the catalogs."""


@lru_cache(maxsize=None)
def _read_catalogs(lang: str) -> tuple[Mapping[str, str], Mapping[str, tuple[str, ...]]]:
    """Every area's catalog of ``lang``, read once: the compiled ``.mo`` files where the package build
    made them (``scripts/i18n.py compile``), else the ``.po`` sources read with Babel. Returns the
    texts (msgid -> msgstr) and the counted texts (English singular -> each form). Fuzzy and empty
    translations are left out, so they fall back to English."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    texts: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    if lang in ("en", PSEUDO) or not folder.is_dir():
        return texts, plurals
    compiled = sorted(folder.glob("*.mo"))
    if compiled:
        import gettext as _gettext

        forms: dict[str, dict[int, str]] = {}
        for path in compiled:
            with path.open("rb") as fh:
                for k, v in _gettext.GNUTranslations(fh)._catalog.items():  # type: ignore[attr-defined]
                    if isinstance(k, str) and k and v:
                        texts.setdefault(k, v)
                    elif isinstance(k, tuple) and k[0] and v:  # a counted text: (singular, form index)
                        forms.setdefault(k[0], {})[k[1]] = v
        plurals.update((k, tuple(f[i] for i in sorted(f))) for k, f in forms.items())
    else:
        from babel.messages.pofile import read_po

        for path in sorted(folder.glob("*.po")):
            with path.open("rb") as fh:
                cat = read_po(fh, locale=lang)
            for m in cat:
                if m.fuzzy:
                    continue
                if m.id and isinstance(m.id, str) and m.string:
                    texts.setdefault(m.id, m.string)
                elif isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string):
                    plurals.setdefault(m.id[0], tuple(m.string))
    for singular, got in plurals.items():  # a counted text's first form under its singular too
        texts.setdefault(singular, got[0])
    return texts, plurals


def catalog(lang: str) -> Mapping[str, str]:
    """msgid -> msgstr for ``lang`` (empty for English or a language without a catalog; a counted
    text's singular -> its first form: :func:`plural_catalog` has them all)."""
    return _read_catalogs(lang)[0]


def plural_catalog(lang: str) -> Mapping[str, tuple[str, ...]]:
    """English singular -> the translated forms of each counted text (``nT``) for ``lang``; a text
    with an empty form is left out (it falls back to English)."""
    return _read_catalogs(lang)[1]


catalog.cache_clear = _read_catalogs.cache_clear  # type: ignore[attr-defined]  (the catalogs read again)
plural_catalog.cache_clear = _read_catalogs.cache_clear  # type: ignore[attr-defined]


@lru_cache(maxsize=None)
def _plural_rule(lang: str):
    import gettext as _gettext

    return _gettext.c2py(PLURAL_FORMS.get(lang, PLURAL_FORMS["en"])[1])


def gettext(msgid: str, lang: str) -> str:
    if lang == PSEUDO:
        return f"\u27e6{msgid}\u27e7"
    return catalog(lang).get(msgid, msgid) if lang != "en" else msgid


def ngettext(singular: str, plural: str, n: int, lang: str) -> str:
    """The form of a counted text ``lang`` uses for ``n`` (English: the singular for 1)."""
    english = singular if n == 1 else plural
    if lang == PSEUDO:
        return f"\u27e6{english}\u27e7"
    forms = plural_catalog(lang).get(singular) if lang != "en" else None
    if not forms:
        return english
    i = int(_plural_rule(lang)(n))
    return forms[min(i, len(forms) - 1)]


def babel_locale(lang: str) -> str:
    return {"zh_CN": "zh_Hans_CN", "en": "en_US", PSEUDO: "en_US"}.get(lang, lang)


class _LocaleFormatter(string.Formatter):
    def __init__(self, lang: str):
        self.lang = lang
        self.loc = babel_locale(lang)

    def format_field(self, value: Any, spec: str) -> str:
        return format_value(value, spec, self.lang)


def format_value(value: Any, spec: str, lang: str) -> str:
    """One figure for ``lang``: T rendered, Money as currency, numbers by Babel (the spec's decimals)."""
    if isinstance(value, T):
        return render(value, lang)
    if lang == "en":
        return format(value, spec)
    loc = babel_locale(lang)
    if isinstance(value, Money):
        if value.amount is None:
            return render(T("price unknown"), lang)
        if not value.currency:
            return format_number(value.amount, 2, lang)
        from babel.numbers import format_currency

        return format_currency(value.amount, value.currency, locale=loc)
    if isinstance(value, Day):
        import datetime

        try:
            day = datetime.date.fromisoformat(value.iso)
        except ValueError:
            return value.iso
        from babel.dates import format_date

        return format_date(day, format="medium", locale=babel_locale(lang))
    if isinstance(value, Month):
        import datetime

        try:
            first = datetime.date.fromisoformat(value.iso + "-01")
        except ValueError:
            return value.text
        from babel.dates import format_skeleton

        return format_skeleton("yMMMM", first, locale=babel_locale(lang))
    if isinstance(value, Num):
        decimals = len(value.text.partition(".")[2]) if "e" not in value.text.lower() else 6
        return format_number(value.value, decimals, lang)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return format(value, spec)
    from babel.numbers import format_decimal, format_percent

    kind = spec[-1:] if spec else ""
    digits = None
    if "." in spec:
        try:
            digits = int(spec.split(".", 1)[1].rstrip("fge%,"))
        except ValueError:
            digits = None
    if kind == "%":  # the locale's pattern (78 % in German and French, 78% in Japanese), with the spec's decimals
        from babel import Locale

        pattern = Locale.parse(loc).percent_formats[None].pattern
        if digits:
            pattern = pattern.replace("#,##0", "#,##0." + "0" * digits, 1)
        return format_percent(value, format=pattern, locale=loc)
    if kind == "f" or (kind == "" and isinstance(value, int)):
        return format_number(value, digits or 0, lang)
    return format_decimal(value, locale=loc)  # 'g' and plain floats: up to three decimals


def format_number(value: float, digits: int, lang: str) -> str:
    """A number with ``digits`` decimals, grouped as the locale groups them (1.440,5 / 1 440,5)."""
    if lang == "en":
        return f"{value:,.{digits}f}"
    from babel.numbers import format_decimal

    return format_decimal(value, format="#,##0" + ("." + "0" * digits if digits else ""),
                          locale=babel_locale(lang))


def render(text: str, lang: str) -> str:
    """``text`` in ``lang``: a ``T`` is translated with its figures formatted for the locale; a plain
    string is returned as it is. English returns the English text unchanged."""
    if lang == "en" or not isinstance(text, T):
        return str(text)
    if text.parts:
        if len(text.parts) == 1 and text.parts[0] is text:
            return str(text)  # verbatim
        return "".join(render(p, lang) for p in text.parts)
    msg = ngettext(text.template, text.plural, text.params.get("n", 0), lang) if text.plural \
        else gettext(text.template, lang)
    if not text.params:
        return msg
    try:
        return _LocaleFormatter(lang).vformat(msg, (), text.params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not break a door
        return _LocaleFormatter(lang).vformat(text.template, (), text.params)


def tr(template: str, lang: str, /, **params: Any) -> str:
    """Shorthand for the doors: ``tr("Cost: {x:.2f}", lang, x=1.5)``."""
    return render(T(template, **params), lang)


def ntr(singular: str, plural: str, n: int, lang: str, /, **params: Any) -> str:
    """Shorthand for the doors' counted texts: ``ntr("{n} price stored", "{n} prices stored", 3, lang)``."""
    return render(nT(singular, plural, n, **params), lang)


def render_finding(f, lang: str) -> dict[str, str]:
    """The three texts of a finding in ``lang``: message, fix and what the check does not cover."""
    return {"message": render(f.message, lang), "fix": render(f.fix, lang), "limits": render(f.limits, lang)}


def texts_of(t: str) -> Iterable[T]:
    """Every translatable template inside ``t`` (parts and T params, recursively)."""
    if not isinstance(t, T):
        return
    if t.parts:
        if len(t.parts) == 1 and t.parts[0] is t:
            return
        for p in t.parts:
            yield from texts_of(p)
        return
    yield t
    for v in t.params.values():
        yield from texts_of(v)
