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

import marshal
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Optional, Sequence

from rapidfuzz import fuzz, process

from rigbuilder.domain.kinds import CATEGORY_KINDS, KINDS
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
SUBSET_SCORE = 80.0
"""A curated part naming every word of the line is taken from this score (see ``Matcher._names_all``)."""

KIND_OF_CATEGORY: dict[str, str] = CATEGORY_KINDS
"""PCPartPicker's categories and the catalog kind each one is (declared with each kind: ``domain.kinds``)."""
ANY_KIND_CATEGORIES = ("Custom",)
"""Lines that may be any kind of part: matched against every kind, never taken without the user."""
KIND_LABELS = {k.name: k.word for k in KINDS if k.categories}
"""The kinds a list line may be, each with the word a text names it by."""

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
    r"\b\d+(?:\.\d+)? mm\b", r"\b(?:\d+ x )?\d+(?:\.\d+)?\s?gb/s\b", r"\bextreme edition\b", r"\b\d+(?:\.\d+)?\"",
]
_NOISE_RE = re.compile("|".join(_NOISE))
_SPEC = [
    r"\bs?tr[45]\b", r"\bstrx4\b", r"\bswrx8\b", r"\bstr5\b", r"\bsp[3-6]\b", r"\bam[2-5]\+?\b", r"\bfm2\+?\b",
    r"\blga\s?\d{3,4}(?:-\d)?\b", r"\b\d{3,5}\s*rpm\b", r"\b(?:lp)?g?ddr\d[a-z]?(?:-\d{3,5})?\b", r"\bpc\d-\d{4,5}\b",
    r"\b\d+(?:\.\d+)?(?:gb|tb|mb)\b", r"\b\d+(?:\.\d+)?\s*(?:mhz|ghz|mt/s|cfm|dba?|mm)\b", r"\bc\d{1,2}\b",
    r"\b\d+\s*x\s*\d+(?:gb|tb)?\b", r"\bm\.?2(?:-\d{4})?\b", r"\b\d{4}\b(?=\s*$)", r"\bpcie\s*\d(?:\.0)?\b",
    r"\b(?:gen|x)\d{1,2}\b", r"\b\d\.\d\b", r"\b80\s*\+", r"\bv\d(?:\.\d)?\b(?=.*\bpower\b)",
]
_SPEC_RE = re.compile("|".join(_SPEC))
"""Sockets (sTR4, AM4, LGA2066), speeds (7200 RPM, DDR4-2400, CL14), capacities (16 GB, 2 x 8 GB),
form factors and bus names: figures a line and a part state, never model numbers (a part is kept
or dropped on them by ``_specs_differ``, which reads the part's own fields)."""
RETAILER_WORDS = ("amazon", "newegg", "ebay", "b h", "bh photo", "best buy", "mindfactory", "alternate", "caseking",
                  "scan", "overclockers", "microcenter", "micro center", "oem", "retail", "tray", "boxed", "box",
                  "renewed", "refurbished", "used", "open box", "bulk", "deutschland", "uk", "us")
"""Words a shop or marketplace adds to a name: dropped before comparing."""
_RETAILER_RE = re.compile(r"\b(?:" + "|".join(w.replace(" ", r"\s") for w in RETAILER_WORDS) + r")\b")
_UNIT_RE = re.compile(r"(\d+)\s*(gb|tb)\b")
_WATT_RE = re.compile(r"(\d{3,4})\s*w\b")
_NUM_RE = re.compile(r"\d+")
_MODEL_TOKEN_RE = re.compile(r"\b(?:[a-z]*\d{3,}[a-z0-9]*|[a-z]+\d+[a-z0-9]*|\d+[a-z]+(?<!gb)(?<!tb))\b")
VARIANT_WORDS = frozenset(("ti", "super", "xt", "xtx", "compact", "mini", "nano", "xl", "xxl", "lite", "pro", "plus",
                           "max", "ultra", "elite", "se", "evo", "ii", "iii", "iv", "v2", "v3", "liquid", "hybrid",
                           "waterforce", "blower", "turbo", "ada", "oc", "amp", "extreme", "ftw", "ftw3", "strix",
                           "tuf", "suprim", "ventus", "le", "x3d", "xe", "gt", "gts", "dx", "aio", "dt", "itx", "core", "shift"))
"""Words that make another model of the same line (Torrent and Torrent Compact, RTX 6000 and RTX 6000
Ada, a Suprim X and a Suprim Liquid X, an OC or AMP card and the plain one): one in the line and not in the part's name, or the other
way round, and the part is only offered."""
MAKER_ALIASES: dict[str, tuple[str, ...]] = {"NVIDIA": ("nvidia", "pny")}
"""Other names a maker's parts are listed under (PNY builds and sells NVIDIA's professional cards)."""
_PAREN_RE = re.compile(r"\([^()]*\)")
_CL_RE = re.compile(r"\bcl(\d+)\b")
_LETTER_SUFFIX_RE = re.compile(r"\b([a-z]*\d[a-z0-9]*)-([a-z])\b")
_NOT_KEY_RE = re.compile(r"[^a-z0-9.+/\-]+")
_NOT_ALNUM_RUN_RE = re.compile(r"[^a-z0-9]+")
_NOT_ALNUM_RE = re.compile(r"[^a-z0-9]")
_PUNCT_RE = re.compile(r"[_()\[\],;]+")


@lru_cache(maxsize=4096)  # a part's name is folded for several checks of each line it may match
def fold(text: str) -> str:
    """Lower case, accents and punctuation gone (G.Skill -> g skill), units joined to their
    numbers (24 GB -> 24gb, 1600 W -> 1600)."""
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    s = _UNIT_RE.sub(r"\1\2", s)
    s = _CL_RE.sub(r"c\1", s)  # CAS latency: CL16 and C16
    s = _LETTER_SUFFIX_RE.sub(r"\1\2", s)  # a model's letter suffix: B860-I is b860i
    s = _WATT_RE.sub(r"\1", s)
    return s


@lru_cache(maxsize=4096)
def match_key(text: str) -> str:
    """What names are compared on: folded, the category words, specifications and shop words dropped."""
    s = _NOISE_RE.sub(" ", fold(text))
    s = _NOT_KEY_RE.sub(" ", s)
    s = _RETAILER_RE.sub(" ", s)
    s = _NOT_ALNUM_RUN_RE.sub(" ", s)
    return " ".join(s.split())


def _model_text(text: str) -> str:
    """The name with its specifications dropped: what model numbers are read from."""
    return _SPEC_RE.sub(" ", _PUNCT_RE.sub(" ", fold(text)))


@lru_cache(maxsize=1024)  # makers, for every candidate of every line
def _squash(text: str) -> str:
    return _NOT_ALNUM_RE.sub("", fold(text))


def _line_model_numbers(name: str) -> set[str]:
    """Numbers in the line's model-like words (3960x, hx1200i, 4677; not 24gb, sTR4, 7200 RPM,
    DDR4-2400 or a lone 2): a part whose name lacks one of them is another model (an NH-U14S is not
    the NH-U14S DX-4677)."""
    key = " ".join(_NOT_ALNUM_RUN_RE.sub(" ", _NOISE_RE.sub(" ", _model_text(name))).split())
    return {n for t in _MODEL_TOKEN_RE.findall(key) for n in _NUM_RE.findall(t)}


_GB_RE = re.compile(r"(\d+(?:\.\d+)?)(gb|tb)\b")
_KIT_RE = re.compile(r"\b(\d+)\s*x\s*(\d+(?:\.\d+)?)gb\b")
_DDR_RE = re.compile(r"\b(ddr\d)(?:-(\d{3,5}))?\b")
_CAS_RE = re.compile(r"\bc(\d{1,2})\b")
_SPEC_WORD_RE = re.compile(r"\d+(?:\.\d+)?(?:gb|tb|g)|g?ddr\d\w*|c\d{1,2}")


def line_specs(name: str) -> dict:
    """The figures a line states: capacities in GB, a memory kit (modules, GB each), DDR generation
    and speed, CAS latency."""
    f = fold(name)
    kit = _KIT_RE.search(f)
    ddr = _DDR_RE.search(f)
    cas = _CAS_RE.search(f)
    return {"gb": {float(n) * (1000 if u == "tb" else 1) for n, u in _GB_RE.findall(_KIT_RE.sub(" ", f))},
            "kit": (int(kit[1]), float(kit[2])) if kit else None,
            "ddr": ddr[1].upper() if ddr else None, "speed": int(ddr[2]) if ddr and ddr[2] else None,
            "cas": int(cas[1]) if cas else None}


def _model_tokens(words) -> dict[str, set]:
    """Model-like words (a number of three digits or more, with letters) by their digits."""
    out = {}
    for w in words:
        digits = "".join(_NUM_RE.findall(w))
        if len(digits) >= 3 and not _SPEC_WORD_RE.fullmatch(w):
            out.setdefault(digits, set()).add(w)
    return out


def _suffix_differs(line_tokens: dict[str, set], part_key: str) -> str:
    """The same model number with other letters in the line (its ``_model_tokens``) and the part
    (its key: B860-I and B860-F, HX1200i and HX1200): another model. Returns 'b860i, b860f' or ''."""
    mine = _model_tokens(part_key.split())
    for digits, ws in line_tokens.items():
        theirs = mine.get(digits)
        if theirs and not ws & theirs:
            return f"{sorted(ws)[0]}, {sorted(theirs)[0]}"
    return ""


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.02 * max(a, b), 0.5)


SIZE_FIELD = {"memory": "total_gb", "storage": "capacity_gb", "gpu": "vram_gb"}
"""The field holding a part's capacity in GB, by kind: what a line's "16 GB" is compared with."""
MEMORY_FIELDS = ("modules", "type", "speed_mts")
"""The further fields a memory kit is compared on (besides its total, ``SIZE_FIELD``)."""


class PartFacts(NamedTuple):
    """What matching reads of a part, and nothing more: a ``MatchTable`` kept between runs stands in
    for the parts with these, so a command matching a list need not load the thousands of
    community rows. The fields a kind does not compare on are None."""

    id: str
    KIND: str
    name: str
    maker: str
    community: bool
    total_gb: Optional[float] = None  # memory (SIZE_FIELD and MEMORY_FIELDS)
    modules: Optional[int] = None
    type: Optional[str] = None
    speed_mts: Optional[int] = None
    capacity_gb: Optional[float] = None  # storage
    vram_gb: Optional[float] = None  # gpu
    model_numbers: tuple[str, ...] = ()
    """``model_numbers(part)``, in the order the name gives them (worked out once, with the table)."""
    name_numbers: tuple[str, ...] = ()
    """Every number in the name, in its order."""

    @classmethod
    def of(cls, part: Part) -> "PartFacts":
        wanted = {SIZE_FIELD.get(part.KIND)} | (set(MEMORY_FIELDS) if part.KIND == "memory" else set())
        return cls(part.id, part.KIND, part.name, part.maker, part.community,
                   *(getattr(part, f) if f in wanted else None
                     for f in ("total_gb", "modules", "type", "speed_mts", "capacity_gb", "vram_gb")),
                   tuple(dict.fromkeys(_NUM_RE.findall(_model_text(_PAREN_RE.sub(" ", part.name))))),
                   tuple(dict.fromkeys(_NUM_RE.findall(fold(part.name)))))


def specs_differ(part: Part | PartFacts, specs: dict) -> str:
    """Why a part cannot be the line's product by the figures both state ('16 GB in the line, 32 GB
    in the part'), or ''. Capacities are compared with the part's own fields: a memory kit's total
    and modules, a drive's capacity, a card's memory; speed, generation and latency for memory."""
    gb = specs["gb"]
    own = SIZE_FIELD.get(part.KIND)
    value = getattr(part, own, None) if own else None
    if gb and value and not any(_close(value, g) for g in gb):
        return T("{line} GB in the line, {part:g} GB in the part", line=", ".join(f"{g:g}" for g in sorted(gb)),
                 part=value)
    if part.KIND != "memory":
        return ""
    if specs["kit"] and part.modules and (specs["kit"][0] != part.modules
                                         or not _close(specs["kit"][1], part.total_gb / part.modules)):
        return T("kit {line} in the line, {part} in the part", line="{} x {:g} GB".format(*specs["kit"]),
                 part=f"{part.modules} x {part.total_gb / part.modules:g} GB")
    if specs["ddr"] and specs["ddr"] != part.type.upper():
        return T("{line} in the line, {part} in the part", line=specs["ddr"], part=part.type)
    if specs["speed"] and part.speed_mts and specs["speed"] != part.speed_mts:
        return T("{line} MT/s in the line, {part} in the part", line=specs["speed"], part=part.speed_mts)
    cas = _CAS_RE.search(fold(_PAREN_RE.sub(" ", part.name)))
    if specs["cas"] and cas and int(cas[1]) != specs["cas"]:
        return T("CL{line} in the line, CL{part} in the part", line=specs["cas"], part=cas[1])
    return ""


def _maker_in(part: Part | PartFacts, line_squashed: str) -> bool:
    names = MAKER_ALIASES.get(part.maker, (part.maker,))
    return any(_squash(n) in line_squashed for n in names)


def model_numbers(part: Part | PartFacts) -> set[str]:
    """The numbers in a catalog part's name outside parentheses (3090, 1600, 7950): each must be
    in a line for the part to be taken. Part numbers in parentheses are left out: lists rarely
    carry them."""
    return set(_NUM_RE.findall(_model_text(_PAREN_RE.sub(" ", part.name))))


def _numbers(part: Part | PartFacts) -> tuple[set[str], set[str]]:
    """A part's ``model_numbers`` and every number in its name (a ``PartFacts`` holds both)."""
    if isinstance(part, PartFacts):
        return set(part.model_numbers), set(part.name_numbers)
    return model_numbers(part), set(_NUM_RE.findall(fold(part.name)))


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


NAME_KEYS: dict[str, str] = {}
"""Part name -> its key, for every matcher of this process that is given no keys of its own: a key
depends only on the name and this module's code, so a second matcher (the list import dialog
opened again, a new catalog version with the same names) keys no name twice."""


def name_key(name: str, known: dict[str, str]) -> str:
    """A part name's key from ``known`` (name -> key), made and added there when missing. Compared
    without the parentheses: part numbers and years there are rarely in a list."""
    k = known.get(name)
    if k is None:
        k = known[name] = match_key(_PAREN_RE.sub(" ", name))
    return k


class MatchTable:
    """A catalog's parts as matching reads them: by kind, sorted by id, each part's key and its
    ``PartFacts``. ``rigbuilder.catalog.matchcache`` keeps one per catalog version with ``marshal``,
    which reads it back in a few milliseconds: the keys as a list of texts (the fuzzy scores read
    them all), the facts packed into one byte string (each part's ``marshal``-ed tuple, at the
    offsets given as unsigned ints), unpacked only for the dozen candidates of a line.
    ``packed``: kind -> (keys, offsets, facts)."""

    def __init__(self, packed: dict[str, tuple[list[str], bytes, bytes]]) -> None:
        self.packed = packed
        self._ids: Optional[set[str]] = None

    @classmethod
    def of_parts(cls, parts, name_keys: dict[str, str]) -> "MatchTable":
        from array import array

        by_kind: dict[str, list[Part]] = {}
        for p in parts:
            by_kind.setdefault(p.KIND, []).append(p)
        packed = {}
        for kind, ps in by_kind.items():
            ps.sort(key=lambda p: p.id)
            keys, blobs, offsets = [], [], array("I", [0])
            for p in ps:  # the key and the facts of one part after the other: its name folded once
                keys.append(name_key(p.name, name_keys))
                blobs.append(marshal.dumps(tuple(PartFacts.of(p))))
                offsets.append(offsets[-1] + len(blobs[-1]))
            packed[kind] = (keys, offsets.tobytes(), b"".join(blobs))
        return cls(packed)

    @property
    def ids(self) -> set[str]:
        """Every part id in the table (unpacks them all: asked for only beside the user's own parts)."""
        if self._ids is None:
            self._ids = {f.id for kind in self.packed for f in self.choices(kind)[1]}
        return self._ids

    def choices(self, kind: str) -> tuple[list[str], Sequence[PartFacts]]:
        """The keys of a kind's parts and the parts (their facts, unpacked as they are asked for)."""
        got = self.packed.get(kind)
        return (got[0], _PackedFacts(got[1], got[2])) if got else ([], ())


class _PackedFacts(Sequence):
    """The ``PartFacts`` of a kind in a table, each unpacked when asked for (a line reads a dozen)."""

    def __init__(self, offsets: bytes, facts: bytes) -> None:
        self.offsets, self.facts = memoryview(offsets).cast("I"), facts

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        return PartFacts._make(marshal.loads(self.facts[self.offsets[i]:self.offsets[i + 1]]))


class Matcher:
    """Matches names against one catalog (keys are built once per kind, on first use).

    ``name_keys``: part name -> its key, kept between runs (``rigbuilder.catalog.matchcache``);
    names missing from it are keyed here and added to it. Without it, the process-wide
    ``NAME_KEYS``.

    ``table``: the index's shipped parts as a ``MatchTable`` made earlier for this very catalog
    version (``matchcache.load_table``): the parts are then read from it, not from the index, so
    the index's pending community rows stay unloaded; the user's own parts (origin "user", an id
    no shipped part has) are taken from the index as they are. What matches is the same either way.

    A line is matched once: the same category and name again (four lines of one GPU) gets the
    first answer."""

    def __init__(self, index: PartIndex, name_keys: Optional[dict[str, str]] = None,
                 table: Optional[MatchTable] = None) -> None:
        self.index = index
        self.name_keys: dict[str, str] = NAME_KEYS if name_keys is None else name_keys
        self.table = table
        self._keys: dict[str, tuple[list[str], Sequence[Part | PartFacts]]] = {}
        self._by_kind: Optional[dict[str, list[Part]]] = None  # the catalog's parts by kind, in one pass
        self._by_id: dict[str, dict[str, int]] = {}
        self._matches: dict[tuple[str, str], Match] = {}
        self._own: Optional[list[Part]] = None  # the user's own parts, beside a table
        self._where: dict[tuple[str, str], int] = {}  # (kind, part id) -> its place in _choices(kind)

    def _choices(self, kind: str) -> tuple[list[str], Sequence[Part | PartFacts]]:
        if kind not in self._keys:
            self._keys[kind] = self._table_choices(kind) if self.table is not None else self._index_choices(kind)
        return self._keys[kind]

    def _index_choices(self, kind: str) -> tuple[list[str], list[Part]]:
        if self._by_kind is None:
            self._by_kind = {}
            for p in self.index:
                self._by_kind.setdefault(p.KIND, []).append(p)
        parts = sorted(self._by_kind.get(kind, ()), key=lambda p: p.id)
        known = self.name_keys
        return [name_key(p.name, known) for p in parts], parts

    def _table_choices(self, kind: str) -> tuple[list[str], Sequence[Part | PartFacts]]:
        assert self.table is not None
        keys, parts = self.table.choices(kind)
        if self._own is None:  # in one pass over the loaded parts (the shipped ones are in the table)
            own = [p for p in self.index.loaded() if p.origin == "user"]
            self._own = [p for p in own if p.id not in self.table.ids] if own else []
        own = [p for p in self._own if p.KIND == kind]
        if not own:
            return keys, parts
        rows = sorted([*zip(keys, parts), *((name_key(p.name, self.name_keys), p) for p in own)],
                      key=lambda kp: kp[1].id)
        return [k for k, _ in rows], [p for _, p in rows]

    def candidates(self, name: str, kinds: tuple[str, ...], limit: int = MAX_CANDIDATES) -> list[Candidate]:
        """The best catalog parts of ``kinds`` for ``name``, best first, after the checks."""
        key = match_key(name)
        if not key:
            return []
        words = set(key.split())
        line_numbers = set(_NUM_RE.findall(fold(name)))
        line_models = _line_model_numbers(name)
        specs = line_specs(name)
        line_squashed = _squash(name)
        line_tokens = _model_tokens(words)
        out: list[Candidate] = []
        for kind in kinds:
            keys, parts = self._choices(kind)
            if not keys:
                continue
            for _, score, i in process.extract(key, keys, scorer=fuzz.token_set_ratio, limit=limit * 2,
                                               score_cutoff=WEAK_SCORE / 2):
                p = parts[i]
                self._where[(kind, p.id)] = i
                cat_words = keys[i].split()
                # token_set_ratio gives 100 to any name whose words are all in the line; the share
                # of the part's words found exactly (Freezer II is not Freezer III) and
                # token_sort_ratio (the words left over) make the closer name win.
                cover = sum(w in words for w in cat_words) / max(1, len(cat_words))
                score = 0.6 * score + 0.2 * fuzz.token_sort_ratio(key, keys[i]) + 20 * cover
                notes = []
                own_models, own_numbers = _numbers(p)
                missing = own_models - line_numbers
                if missing:
                    notes.append(T("model numbers differ ({numbers})",
                                   numbers=", ".join(sorted(missing, key=len, reverse=True)[:3])))
                extra = line_models - own_numbers
                if not missing and not extra and (other := _suffix_differs(line_tokens, keys[i])):
                    notes.append(T("model numbers differ ({numbers})", numbers=other))
                if not missing and not extra and (why := specs_differ(p, specs)):
                    notes.append(why)
                if extra and not missing:
                    notes.append(T("the line names {numbers}, the part does not",
                                   numbers=", ".join(sorted(extra, key=len, reverse=True)[:2])))
                part_words = set(cat_words)
                if "(" in p.name:  # the key leaves out what is in parentheses; the checks read it too
                    part_words |= set(match_key(p.name).split())
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

    def _rival(self, best: Candidate, other: Candidate, words: frozenset = frozenset()) -> bool:
        """Whether ``other`` is a real alternative to ``best``: it passed the checks, and either
        scores within MARGIN or finds the very same words of the line (the Black and the White
        edition of a card, when the line names neither: the score would only be a guess), and is
        not a shorter name of which ``best`` says everything and more (GTX 1080 beside GTX 1080 Ti,
        when the line says Ti)."""
        if other.note:
            return False
        kb, ko = set(self._key_of(best).split()), set(self._key_of(other).split())
        kb, ko = {w for w in kb if not _SPEC_WORD_RE.fullmatch(w)}, {w for w in ko if not _SPEC_WORD_RE.fullmatch(w)}
        guess = bool(words) and bool(kb - words) and kb & words == ko & words
        if best.score - other.score >= MARGIN and not guess:
            return False
        return not (ko < kb)

    def _names_all(self, best: Candidate, name: str) -> bool:
        """A curated part whose name holds every word of the line (bar specifications) and scores at
        least SUBSET_SCORE: the line only leaves out a series name (Corsair 750D Airflow Edition for
        the Carbide Series 750D Airflow Edition). Community names carry colours and editions, so an
        extra word there may be another product: those need ACCEPT_SCORE."""
        if best.score < SUBSET_SCORE or (i := self._position(best)) is None or self._choices(best.kind)[1][i].community:
            return False
        words = {w for w in match_key(name).split() if not _SPEC_WORD_RE.fullmatch(w)}
        return bool(words) and words <= set(self._key_of(best).split())

    def _position(self, c: Candidate) -> Optional[int]:
        """Where the candidate's part is in its kind's choices."""
        if (c.kind, c.part_id) in self._where:  # (every candidate this matcher offered)
            return self._where[(c.kind, c.part_id)]
        if c.kind not in self._by_id:
            self._by_id[c.kind] = {p.id: i for i, p in enumerate(self._choices(c.kind)[1])}
        return self._by_id[c.kind].get(c.part_id)

    def _key_of(self, c: Candidate) -> str:
        i = self._position(c)
        return "" if i is None else self._choices(c.kind)[0][i]

    def match(self, category: str, name: str) -> Match:
        """Match one list line: MATCHED only when the best candidate is clear; WEAK with candidates
        to choose from; NONE when nothing comes close; SKIPPED for categories the catalog does
        not model (monitors, keyboards, operating systems)."""
        m = self._matches.get((category, name))
        if m is None:
            m = self._matches[(category, name)] = self._match(category, name)
        return m

    def _match(self, category: str, name: str) -> Match:
        kind = KIND_OF_CATEGORY.get(category)
        if kind is None and category not in ANY_KIND_CATEGORIES:
            return Match(SKIPPED, None, (), T("{category}: not a part rigbuilder checks", category=category) if category
                         else T("this line: not a part rigbuilder checks"))
        kinds = (kind,) if kind else tuple(KIND_LABELS)
        found = self.candidates(name, kinds)  # once: a custom line searches every kind (issue 24)
        cands = [c for c in found if c.score >= WEAK_SCORE]
        if not cands:
            return Match(NONE, kind, tuple(found[:3]),
                         T("no catalog {kind} comes close; choose one or skip the line", kind=T(KIND_LABELS[kind])) if kind
                         else T("no catalog part comes close; choose one or skip the line"))
        best = cands[0]
        if kind is None:
            return Match(WEAK, None, tuple(cands), T("a custom line: choose what it is, or skip it"))
        if best.note:
            return Match(WEAK, kind, tuple(cands), best.note)
        if best.score < ACCEPT_SCORE and not self._names_all(best, name):
            return Match(WEAK, kind, tuple(cands), T("best score {score:.0f} is under {accept:.0f}", score=best.score,
                                                     accept=ACCEPT_SCORE))
        words = frozenset(match_key(name).split())
        rivals = [c for c in cands[1:] if self._rival(best, c, words)]
        if rivals:
            return Match(WEAK, kind, tuple(cands), T("{best} and {rival} score alike", best=best.name, rival=rivals[0].name))
        return Match(MATCHED, kind, tuple(cands))


CATEGORY_OF_KIND = {kind: cat for cat, kind in KIND_OF_CATEGORY.items()}


def kind_of(text: str) -> Optional[str]:
    """A catalog kind from a kind name or a PCPartPicker category ('gpu', 'Video Card'); None if neither."""
    t = (text or "").strip()
    if t.lower() in KIND_LABELS:
        return t.lower()
    return next((k for c, k in KIND_OF_CATEGORY.items() if c.lower() == t.lower()), None)


def match_any(matcher: Matcher, name: str, kind: Optional[str] = None) -> Match:
    """A name with no category (a row of a price file): matched only when exactly one kind gives a
    clear match, by the same rules as a list line; else weak or none with the best candidates."""
    kinds = (kind,) if kind else tuple(KIND_LABELS)
    results = [matcher.match(CATEGORY_OF_KIND[k], name) for k in kinds]
    clear = [m for m in results if m.status == MATCHED]
    if len(clear) == 1:
        return clear[0]
    cands = sorted((c for m in results for c in m.candidates), key=lambda c: (-c.score, c.part_id))[:MAX_CANDIDATES]
    if len(clear) > 1:
        return Match(WEAK, None, tuple(cands), T("matches parts of several kinds ({kinds}); give its kind",
                                                 kinds=", ".join(m.kind or "" for m in clear)))
    weak = [m for m in results if m.status == WEAK]
    if weak:
        best = max(weak, key=lambda m: m.best.score if m.best else 0)
        return Match(WEAK, best.kind, tuple(cands), best.reason)
    return Match(NONE, kind, tuple(cands), T("no catalog part comes close"))
