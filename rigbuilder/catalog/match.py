"""Matching a part name someone typed or exported (a PCPartPicker line) to catalog parts.

Fuzzy scores come from rapidfuzz (``process.extract`` over one list of names per catalog kind, so
a catalog of thousands of parts costs one vectorised call per line, not a Python loop). Two
checks guard against the classic fuzzy mistakes and turn a high score into a weak one: the model
numbers of the catalog part must all appear in the line (an RTX 3080 is not an RTX 3090), and its
maker must appear in the line (an ASUS card is not the NVIDIA Founders Edition). What is a match,
what is weak and how many candidates are offered is decided here, in one place. A third check
keeps variants apart: a word such as Compact, Ti, Ultra or Liquid in the line and not in the
part's name, or the other way round, makes the part a candidate only.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Optional

from rapidfuzz import fuzz, process

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import Part

ACCEPT_SCORE = 90.0
"""A line whose best candidate scores at least this (0-100), passes both checks and leads the next
part by ``MARGIN`` is matched; anything less is offered for the user to choose."""
WEAK_SCORE = 55.0
"""Candidates scoring under this are not offered: the line is unmatched."""
MARGIN = 2.0
"""The best candidate must lead the next one by this much, else the line is ambiguous (weak)."""
CHECK_CAP = ACCEPT_SCORE - 10
"""A candidate failing the model-number or maker check scores at most this (its score scaled by
CHECK_CAP / 100): offered, never taken."""
MAX_CANDIDATES = 6

KIND_OF_CATEGORY: dict[str, str] = {
    "CPU": "cpu", "CPU Cooler": "cooler", "Motherboard": "motherboard", "Memory": "memory", "Storage": "storage",
    "Video Card": "gpu", "Case": "case", "Power Supply": "psu", "Wired Network Adapter": "nic",
}
"""PCPartPicker's categories and the catalog kind each one is."""
ANY_KIND_CATEGORIES = ("Custom",)
"""Lines that may be any kind of part: matched against every kind, never taken without the user."""
KIND_LABELS = {"cpu": "CPU", "cooler": "CPU cooler", "motherboard": "motherboard", "memory": "memory",
               "storage": "storage", "gpu": "GPU", "case": "case", "psu": "PSU", "nic": "network card"}

MATCHED, WEAK, NONE, SKIPPED = "matched", "weak", "none", "skipped"

# Words that say what kind of part a line is or give specifications the catalog names leave out;
# dropping them lets the score weigh the words that tell products apart.
_NOISE = [
    r"\bvideo card\b", r"\bprocessor\b", r"\bmotherboard\b", r"\bpower supply\b", r"\bmemory\b",
    r"\bsolid state drive\b", r"\binternal hard drive\b", r"\b(?:liquid )?cpu cooler\b", r"\bnetwork adapter\b",
    r"\b(?:mid|full|mini) tower case\b", r"\bcase\b", r"\d+(?:\.\d+)?\s*ghz\b", r"\d+(?:\.\d+)?\s*cfm\b",
    r"\b\d+-core\b", r"\b80\s*\+", r"\bcertified\b", r"\b(?:fully|semi)[- ]modular\b", r"\bnon-modular\b",
    r"\b(?:e|xl-|micro |mini-?|ssi )?atx\b", r"\bssi eeb\b", r"\beeb\b", r"\bmini itx\b", r"\bstrx4\b", r"\bswrx8\b",
    r"\bstr5\b", r"\bam[45]\b", r"\blga\s?\d{3,4}(?:-\d)?\b", r"\bm\.2-\d{4}\b", r"\bpcie(?: \d\.0)?(?: x\d+)?\b", r"\bnvme\b",
    r"\b\d+(?:\.\d+)? mm\b", r"\b(?:\d+ x )?\d+(?:\.\d+)? gb/s\b", r"\b\d+(?:\.\d+)?\"",
]
_NOISE_RE = re.compile("|".join(_NOISE))
_UNIT_RE = re.compile(r"(\d+)\s*(gb|tb)\b")
_WATT_RE = re.compile(r"(\d{3,4})\s*w\b")
_NUM_RE = re.compile(r"\d+")
_MODEL_TOKEN_RE = re.compile(r"\b(?:[a-z]*\d{3,}[a-z0-9]*|[a-z]+\d+[a-z0-9]*|\d+[a-z]+(?<!gb)(?<!tb))\b")
VARIANT_WORDS = frozenset(("ti", "super", "xt", "xtx", "compact", "mini", "nano", "xl", "xxl", "lite", "pro", "plus",
                           "max", "ultra", "elite", "se", "evo", "ii", "iii", "iv", "v2", "v3", "liquid", "hybrid",
                           "waterforce", "blower", "turbo", "ada"))
"""Words that make another model of the same line (Torrent and Torrent Compact, RTX 6000 and RTX 6000
Ada, a Suprim X and a Suprim Liquid X): one in the line and not in the part's name, or the other
way round, and the part is only offered."""
MAKER_ALIASES: dict[str, tuple[str, ...]] = {"NVIDIA": ("nvidia", "pny")}
"""Other names a maker's parts are listed under (PNY builds and sells NVIDIA's professional cards)."""
_PAREN_RE = re.compile(r"\([^()]*\)")


def fold(text: str) -> str:
    """Lower case, accents and punctuation gone (G.Skill -> g skill), units joined to their
    numbers (24 GB -> 24gb, 1600 W -> 1600)."""
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    s = _UNIT_RE.sub(r"\1\2", s)
    s = re.sub(r"\bcl(\d+)\b", r"c\1", s)  # CAS latency: CL16 and C16
    s = _WATT_RE.sub(r"\1", s)
    return s


def match_key(text: str) -> str:
    """What names are compared on: folded, the category words and specifications dropped."""
    s = _NOISE_RE.sub(" ", fold(text))
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return " ".join(s.split())


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", fold(text))


def _line_model_numbers(key: str) -> set[str]:
    """Numbers in the line's model-like words (3960x, hx1200i, 4677; not 24gb or a lone 2): a
    part whose name lacks one of them is another model (an NH-U14S is not the NH-U14S DX-4677)."""
    return {n for t in _MODEL_TOKEN_RE.findall(key) for n in _NUM_RE.findall(t)}


def _maker_in(part: Part, line_squashed: str) -> bool:
    names = MAKER_ALIASES.get(part.maker, (part.maker,))
    return any(_squash(n) in line_squashed for n in names)


def model_numbers(part: Part) -> set[str]:
    """The numbers in a catalog part's name outside parentheses (3090, 1600, 7950): each must be
    in a line for the part to be taken. Part numbers in parentheses are left out: lists rarely
    carry them."""
    return set(_NUM_RE.findall(fold(_PAREN_RE.sub(" ", part.name))))


@dataclass(frozen=True)
class Candidate:
    part_id: str
    name: str
    kind: str
    score: float  # 0-100 after the checks
    note: str = ""  # why a high score was cut: "model numbers differ (3080)", "maker ASUS not in the line"


@dataclass(frozen=True)
class Match:
    status: str  # MATCHED, WEAK, NONE or SKIPPED
    kind: Optional[str]  # the catalog kind the line's category is; None for Custom and skipped lines
    candidates: tuple[Candidate, ...] = ()
    reason: str = ""  # in words, for weak, none and skipped lines

    @property
    def part_id(self) -> Optional[str]:
        return self.candidates[0].part_id if self.status == MATCHED else None

    @property
    def best(self) -> Optional[Candidate]:
        return self.candidates[0] if self.candidates else None


class Matcher:
    """Matches names against one catalog (keys are built once per kind, on first use).

    ``name_keys``: part name -> its key, kept between runs (``rigbuilder.catalog.matchcache``);
    names missing from it are keyed here and added to it."""

    def __init__(self, index: PartIndex, name_keys: Optional[dict[str, str]] = None) -> None:
        self.index = index
        self.name_keys: dict[str, str] = {} if name_keys is None else name_keys
        self._keys: dict[str, tuple[list[str], list[Part]]] = {}

    def _choices(self, kind: str) -> tuple[list[str], list[Part]]:
        if kind not in self._keys:
            parts = sorted(self.index.of_kind(kind), key=lambda p: p.id)
            known = self.name_keys
            keys = []
            for p in parts:
                k = known.get(p.name)
                if k is None:
                    # Compared without the parentheses: part numbers and years there are rarely in a list.
                    k = known[p.name] = match_key(_PAREN_RE.sub(" ", p.name))
                keys.append(k)
            self._keys[kind] = (keys, parts)
        return self._keys[kind]

    def candidates(self, name: str, kinds: tuple[str, ...], limit: int = MAX_CANDIDATES) -> list[Candidate]:
        """The best catalog parts of ``kinds`` for ``name``, best first, after the checks."""
        key = match_key(name)
        if not key:
            return []
        words = set(key.split())
        line_numbers = set(_NUM_RE.findall(fold(name)))
        line_models = _line_model_numbers(key)
        line_squashed = _squash(name)
        out: list[Candidate] = []
        for kind in kinds:
            keys, parts = self._choices(kind)
            if not keys:
                continue
            for _, score, i in process.extract(key, keys, scorer=fuzz.token_set_ratio, limit=limit * 2,
                                               score_cutoff=WEAK_SCORE / 2):
                p = parts[i]
                cat_words = keys[i].split()
                # token_set_ratio gives 100 to any name whose words are all in the line; the share
                # of the part's words found exactly (Freezer II is not Freezer III) and
                # token_sort_ratio (the words left over) make the closer name win.
                cover = sum(w in words for w in cat_words) / max(1, len(cat_words))
                score = 0.6 * score + 0.2 * fuzz.token_sort_ratio(key, keys[i]) + 20 * cover
                notes = []
                missing = model_numbers(p) - line_numbers
                if missing:
                    notes.append(T("model numbers differ ({numbers})",
                                   numbers=", ".join(sorted(missing, key=len, reverse=True)[:3])))
                extra = line_models - set(_NUM_RE.findall(fold(p.name)))
                if extra and not missing:
                    notes.append(T("the line names {numbers}, the part does not",
                                   numbers=", ".join(sorted(extra, key=len, reverse=True)[:2])))
                part_words = set(keys[i].split()) | set(match_key(p.name).split())
                line_only = sorted((words - part_words) & VARIANT_WORDS)
                part_only = sorted((part_words - words) & VARIANT_WORDS)
                if (line_only or part_only) and not notes:
                    bits = [T("{words} in the line only", words=" ".join(line_only).upper())] if line_only else []
                    bits += [T("{words} in the part only", words=" ".join(part_only).upper())] if part_only else []
                    notes.append(T.join(*[x for i, b in enumerate(bits) for x in (("; ", b) if i else (b,))]))
                if not _maker_in(p, line_squashed):
                    notes.append(T("maker {maker} not in the line", maker=p.maker))
                if notes:
                    score = score * CHECK_CAP / 100  # offered, never taken; the order among them kept
                note = T.join(*[x for i, n in enumerate(notes) for x in (("; ", n) if i else (n,))]) if notes else ""
                out.append(Candidate(p.id, p.name, kind, round(score, 1), note))
        out.sort(key=lambda c: (-c.score, c.part_id))
        return out[:limit]

    def _rival(self, best: Candidate, other: Candidate) -> bool:
        """Whether ``other`` is a real alternative to ``best``: it passed the checks, scores within
        MARGIN, and is not a shorter name of which ``best`` says everything and more (GTX 1080
        beside GTX 1080 Ti, when the line says Ti)."""
        if other.note or best.score - other.score >= MARGIN:
            return False
        kb, ko = (self._key_of(best), self._key_of(other))
        return not (set(ko.split()) < set(kb.split()))

    def _key_of(self, c: Candidate) -> str:
        keys, parts = self._choices(c.kind)
        for k, p in zip(keys, parts):
            if p.id == c.part_id:
                return k
        return ""

    def match(self, category: str, name: str) -> Match:
        """Match one list line: MATCHED only when the best candidate is clear; WEAK with candidates
        to choose from; NONE when nothing comes close; SKIPPED for categories the catalog does
        not model (monitors, keyboards, operating systems)."""
        kind = KIND_OF_CATEGORY.get(category)
        if kind is None and category not in ANY_KIND_CATEGORIES:
            return Match(SKIPPED, None, (), T("{category}: not a part rigbuilder checks", category=category) if category
                         else T("this line: not a part rigbuilder checks"))
        kinds = (kind,) if kind else tuple(KIND_LABELS)
        cands = [c for c in self.candidates(name, kinds) if c.score >= WEAK_SCORE]
        if not cands:
            return Match(NONE, kind, tuple(self.candidates(name, kinds, 3)),
                         T("no catalog {kind} comes close; choose one or skip the line", kind=T(KIND_LABELS[kind])) if kind
                         else T("no catalog part comes close; choose one or skip the line"))
        best = cands[0]
        if kind is None:
            return Match(WEAK, None, tuple(cands), T("a custom line: choose what it is, or skip it"))
        if best.note:
            return Match(WEAK, kind, tuple(cands), best.note)
        if best.score < ACCEPT_SCORE:
            return Match(WEAK, kind, tuple(cands), T("best score {score:.0f} is under {accept:.0f}", score=best.score,
                                                     accept=ACCEPT_SCORE))
        rivals = [c for c in cands[1:] if self._rival(best, c)]
        if rivals:
            return Match(WEAK, kind, tuple(cands), T("{best} and {rival} score alike", best=best.name, rival=rivals[0].name))
        return Match(MATCHED, kind, tuple(cands))
