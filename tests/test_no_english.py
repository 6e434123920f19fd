"""No English in a translated door (issue 25): every finding, the optimiser's texts and generated
build names, the limits advice, the money lines and the report, rendered in each language from
scenario builds, hold none of a list of English words once the data they quote (part names, price
and part sources, publication titles, commands) is taken out; a price's note is not data: it is
translated too."""
from __future__ import annotations

import collections
import functools
import re

import pytest

from rigbuilder.domain.build import GpuPlacement, shown_name
from rigbuilder.domain.i18n import render
from rigbuilder.domain.publications import PUBLICATIONS
from rigbuilder.models.cost import money_lines, purchase
from rigbuilder.rules.engine import run_checks
from tests.builds import frank_2070, x99_4x3090

LANGS = ("de", "fr", "ja", "zh_CN")
# Words no German, French, Japanese or Chinese sentence uses (German "Build", "Limit" and French
# "table", "case" are words of those languages: left out).
ENGLISH = ("the", "and", "with", "without", "of", "is", "are", "not", "for", "at", "grown", "today", "untitled",
           "replicated", "price", "socket", "used", "wall", "load", "peak", "carries",
           "continuously", "incomplete", "missing", "fits", "every", "memory", "storage", "unverified",
           "estimate", "headroom", "above", "below", "which", "this", "from", "has", "have", "sits", "neither")
WORD = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b", re.IGNORECASE | re.ASCII)
FIELD = re.compile(r"\b[a-z]+_[a-z_]+\b", re.ASCII)  # a raw field name (form_factor, width_mm)


def scenarios():
    incomplete = frank_2070(2)
    incomplete.memory, incomplete.storage = [], []
    incomplete.gpus.append(GpuPlacement(incomplete.gpus[0].part_id, None))
    unnamed = frank_2070()
    unnamed.name = ""
    return {"seed 000": frank_2070(), "seed 000 grown": frank_2070(4), "incomplete": incomplete,
            "unnamed": unnamed, "seed 001 JP full": x99_4x3090(None, region="JP-15A"),
            "seed 001 JP 280 W": x99_4x3090(280, region="JP-15A"), "seed 001 US": x99_4x3090(None),
            "seed 001 CN": x99_4x3090(350, region="CN-10A"), "seed 001 UK": x99_4x3090(None, region="UK-13A")}


def _data(index, builds) -> list[str]:
    """What the texts quote as data: part names and sources, price sources, citations."""
    out = []
    for b in builds:
        out.append(str(b.name))  # a name the user gave is theirs (a generated one is checked on its own)
        for pid in b.part_ids():
            p = index.get(pid)
            if p is None:
                continue
            out += [p.name, p.source, pid, getattr(p, "price_source", "") or ""]
    for obs in index.prices.observations.values():  # a price's note is translated (domain/pricenotes.py)
        out += [o.source for o in obs]
    out += [c for pub in PUBLICATIONS for c in (pub.full(), pub.title, pub.where, pub.year)]
    out.append(index.prices.rates.source)  # the rates' publisher names them in its own words
    return sorted({x for x in out if x and len(x) > 2}, key=len, reverse=True)


def english_in(text: str, data: list[str]) -> list[str]:
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)  # Markdown escapes
    for x in data:
        text = text.replace(x, " ")
    text = "\n".join(line for line in text.splitlines()
                     if not line.strip().startswith(("sudo ", "@reboot", "ExecStart", "[", "Description=", "After=",
                                                     "Type=", "WantedBy=")))
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"rigbuilder [a-z][a-z -]*", " ", text)  # a command to type
    text = re.sub(r"\b[a-z]+\.[a-z][a-z-]*\b", " ", text)  # a rule code (build.incomplete): stable, not words
    text = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)  # quoted commands and titles
    return WORD.findall(text) + FIELD.findall(text)


@pytest.fixture(scope="module")
def texts(index):
    """(label, text) in each language: what a user of that language reads."""
    from rigbuilder.rules.power import limit_lines
    from rigbuilder.files.report import report_data, to_markdown
    from rigbuilder.rules.power import plan_limits

    builds = scenarios()
    out: dict[str, list[tuple[str, str]]] = {lang: [] for lang in LANGS}
    data = _data(index, builds.values())
    for name, b in builds.items():
        fs = run_checks(b, index)
        buy = purchase(b, index)
        plan = plan_limits(b, index)
        for lang in LANGS:
            got = out[lang]
            for f in fs:
                for part in ("message", "fix", "limits"):
                    got.append((f"{name}: {f.code}.{part}", render(getattr(f, part), lang)))
            got += [(f"{name}: money", render(x, lang)) for x in money_lines(buy, None, 3)]
            got.append((f"{name}: total", render(buy.total_label(), lang)))
            got.append((f"{name}: name", shown_name(b.name, lang)))
            if plan is not None:
                got += [(f"{name}: limits", render(x, lang)) for x in limit_lines(plan, b.settings.region_info().label)]
    for name in ("seed 000", "incomplete", "seed 001 JP 280 W", "unnamed"):
        for lang in LANGS:
            md = to_markdown(report_data(builds[name], index, lang=lang, today="2026-11-26")).decode()
            out[lang].append((f"{name}: report", md))
    return out, data


@pytest.fixture(scope="module")
def optimiser_texts(index):
    from rigbuilder.rules.optimise import Request, optimise
    from tests.rules.optimise_helpers import StandIn

    res = optimise(Request(budget=2000, currency="EUR", condition="both", gpus_now=1, grow_to=4,
                           choices=(("training-vram", False),)), index, StandIn())  # a build: 11 GB cards
    builds = [c.grown for c in res.candidates]
    data = [x for x in _data(index, builds) if x not in {str(b.name) for b in builds}]
    out = {}
    for lang in LANGS:
        got = [("explanation", render(x, lang)) for x in res.explanation]
        for c in res.candidates:
            got += [("label", render(c.label, lang)), ("today", render(c.today.name, lang)),
                    ("grown", render(c.grown.name, lang))]
            got += [("unverified", render(u, lang)) for u in c.unverified]
            got += [("price", render(where, lang)) for _pid, _n, _each, where in c.prices]
            got += [(f"finding {f.code}", render(f.message, lang)) for f in c.findings_grown]
        out[lang] = got
    return out, data, res


@pytest.mark.parametrize("lang", LANGS)
def test_findings_limits_money_names_and_reports_hold_no_english(texts, lang):
    out, data = texts
    bad = [(label, words, text[:160]) for label, text in out[lang] if (words := english_in(text, data))]
    assert not bad, bad[:12]


@pytest.mark.parametrize("lang", LANGS)
def test_optimiser_texts_and_generated_names_hold_no_english(optimiser_texts, lang):
    out, data, _ = optimiser_texts
    bad = [(label, words, text[:160]) for label, text in out[lang] if (words := english_in(text, data))]
    assert not bad, bad[:12]


def test_the_word_list_catches_english(texts, optimiser_texts):
    """The test can fail: the English doors hold these words."""
    out, data = texts
    en = "\n".join(render(t, "en") for t in ("The build is incomplete: it has no memory.",))
    assert english_in(en, data)
    assert english_in("unverified: form_factor, width_mm", data) == ["unverified", "form_factor", "width_mm"]
    _, _, res = optimiser_texts
    assert english_in(str(res.best.grown.name), data)  # '... on X99 WS-E (grown)' in English


# --------------------------------------------------------------------------- shared with the window's and
# the command line's walks (issue 43): the same word test after the data a text quotes is taken out

MORE = ("look", "files", "blower", "registered", "datacenter", "required", "arguments", "following", "show",
        "help", "exit", "error", "cancel", "close", "open", "save", "apply", "discard", "yes", "back", "forward",
        "folder", "detail", "details", "list", "view", "usage", "positional", "options", "optional")
"""Words a window, Qt's dialogs or argparse would show were they left in English."""
MORE_WORD = re.compile(r"\b(" + "|".join(MORE) + r")\b", re.IGNORECASE | re.ASCII)
OK_IN = {"de": {"details", "list", "exit", "optional"}, "fr": {"list", "options", "usage", "arguments"}}
"""Words of those languages too: German "Details", "Exit-Code", "optional"; French "options", "usage", "arguments"."""
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|„[^“”]*[“”]|“[^”]*”|«[^»]*»|「[^」]*」|『[^』]*』")


@functools.lru_cache(maxsize=None)
def _plain(t: str) -> str:
    """Links, paths and rule codes out, spaces as one (in a text and in its data alike)."""
    t = re.sub(r"https?://\S+|(?<![\w.])/[\w./-]+|\b[a-z]+\.[a-z][a-z-]*\b", " ", t)
    return re.sub(r"\s+", " ", t)


class Quoted:
    """Data a text may quote, made ready to be taken out of many texts: each string as ``_plain``
    leaves it, in the caller's order, found through one of its three-character pieces without a
    space (a word's first three characters, the rarest among all the strings'), so a text is
    compared only with the strings that can be in it instead of all ~30,000 part names and sources.

    The same strings are taken out as comparing with every one in turn would: a piece without a
    space in the text, before or after earlier strings were replaced by a space, stands in the
    original text as it is (a replacement puts a space between its neighbours), so a string whose
    piece is not in the original text is in none of the texts it becomes; strings with no such
    piece (``A B C``) are compared with every text."""

    def __init__(self, data) -> None:
        self.strings = [x for x in (_plain(d).strip() for d in data) if len(x) > 2]
        pieces = [{w[:3] for w in x.split(" ") if len(w) >= 3} for x in self.strings]  # words' first three
        count = collections.Counter(k for ks in pieces for k in ks)
        self.by_piece: dict[str, list[int]] = {}
        self.always: list[int] = []
        for i, ks in enumerate(pieces):
            if ks:
                self.by_piece.setdefault(min(sorted(ks), key=count.__getitem__), []).append(i)
            else:
                self.always.append(i)

    def take_out(self, text: str) -> str:
        """``text`` with every string in it replaced by a space, in the caller's order."""
        found = set(self.always)
        for i in range(len(text) - 2):
            got = self.by_piece.get(text[i:i + 3])
            if got is not None:
                found.update(got)
        for i in sorted(found):
            x = self.strings[i]
            if x in text:
                text = text.replace(x, " ")
        return text


_quoted_cache: dict[tuple, Quoted] = {}


def quoted(data) -> Quoted:
    """``Quoted(data)``, made once for the same strings (the tests call ``english`` per text)."""
    if isinstance(data, Quoted):
        return data
    key = tuple(data)
    got = _quoted_cache.get(key)
    if got is None:
        if len(_quoted_cache) > 8:
            _quoted_cache.clear()
        got = _quoted_cache[key] = Quoted(key)
    return got


@functools.lru_cache(maxsize=None)
def _rule_groups() -> frozenset:
    from rigbuilder.rules.engine import RULE_CODES

    return frozenset(c.split(".")[0] for c in RULE_CODES)


def english(text: str, data, lang: str) -> list[str]:
    """The English words in ``text`` (in ``lang``) once the data it quotes is taken out: ``data``
    (a list of strings or a ``Quoted`` made of one), anything in quotation marks of any language,
    links, paths, rule codes and the rule codes' group names standing alone on a line (headings)."""
    groups = _rule_groups()
    cleaned = "\n".join(line for line in text.splitlines() if line.strip() not in groups)
    cleaned = quoted(data).take_out(_plain(cleaned))
    cleaned = QUOTED.sub(" ", cleaned)
    found = english_in(cleaned, [])
    return found + [w for w in MORE_WORD.findall(cleaned) if w.lower() not in OK_IN.get(lang, set())]


def _taken_out_one_by_one(text: str, data: list[str]) -> str:
    """What ``Quoted.take_out`` must equal: every string compared with the text in turn."""
    for x in data:
        x = _plain(x).strip()
        if len(x) > 2 and x in text:
            text = text.replace(x, " ")
    return text


def test_quoted_data_is_taken_out_as_one_by_one(index):
    """``Quoted`` finds the strings through pieces of them: the same text is left as comparing every
    string in turn, on texts made of part names, pieces of them, spaces and words, and where taking
    one string out makes another (``A B`` once ``Turbo 3090`` is out of ``ATurbo 3090B``)."""
    import random

    rnd = random.Random(43)
    names = sorted({x for p in index for x in (p.name, p.source) if x and len(x) > 2})
    data = rnd.sample(names, 400) + ["A B", "x y z", "Turbo 3090", "3090 Turbo", "RTX", "ab cd", "cd ef"]
    data = sorted(set(data), key=len, reverse=True)
    made = Quoted(data)
    assert made.take_out("ATurbo 3090B und") == _taken_out_one_by_one("ATurbo 3090B und", data) == "  und"
    words = ["the", " ", "ab", "cd ef", "x", "y z", "Turbo", "3090", "RTX", "A", "B", "und", "\n"]
    checked = 0
    for _ in range(600):
        bits = []
        for _ in range(rnd.randint(1, 12)):
            pick = rnd.random()
            if pick < 0.35:
                bits.append(rnd.choice(data))
            elif pick < 0.5:
                x = rnd.choice(data)
                a = rnd.randrange(len(x))
                bits.append(x[a:a + rnd.randint(1, 8)])
            else:
                bits.append(rnd.choice(words))
        text = _plain("".join(bits) if rnd.random() < 0.5 else " ".join(bits))
        want = _taken_out_one_by_one(text, data)
        assert made.take_out(text) == want, text
        checked += want != text
    assert checked > 300  # most texts held some data to take out
