"""Validate raw rows (from JSON, CSV or the database) into domain part objects.

One mechanism serves the shipped JSON files, user imports and build files: the field list and
types come from the dataclasses in :mod:`rigbuilder.domain.parts`, so nothing is declared twice.
Every problem names where it is (file, line or row, part id) and which field.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
import types
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional, Union

from rigbuilder.domain.parts import LaneRule, Part, Riser
from rigbuilder.domain.safeio import bad_text

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,119}$")
DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
TRIGGER_RE = re.compile(r"^(!?[A-Za-z0-9_.()\-/ ]{1,40}|cpu_lanes<\d{1,3})$")
MAX_TEXT = 2000
MULTILINE_FIELDS = {"notes", "source", "price_note"}  # every other text is one line
OPTIONAL_KEYS = {"unverified", "notes", "price_note", "price", "currency", "origin"}
READ_ONLY_FIELDS = ("origin", "verified", "trust", "slots_confirmed", "positions_confirmed", "price_used")
"""Keys ``catalog list/show --json`` adds to a row that are worked out, not stored: an import of
that output ignores them and names them (docs/cli-json.md)."""


@dataclass(frozen=True)
class Problem:
    """A validation problem: where (file and line/row), the field, and what is wrong."""

    where: str
    field: str
    message: str

    def __str__(self) -> str:
        f = f" field '{self.field}'" if self.field else ""
        return f"{self.where}:{f} {self.message}"


class ValidationError(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems[:50]))


@lru_cache(maxsize=None)
def field_specs(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """(name, type, required) for each dataclass field of ``cls``, except ``origin``."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if f.name == "origin":
            continue
        tp = hints[f.name]
        optional = _is_optional(tp)
        has_default = (f.default is not dataclasses.MISSING
                       or f.default_factory is not dataclasses.MISSING)  # type: ignore[misc]
        required = not optional and f.name not in OPTIONAL_KEYS and not (
            has_default and cls in (LaneRule,))
        out.append((f.name, tp, required))
    return tuple(out)


def _is_optional(tp: Any) -> bool:
    return _type_info(tp)[0]


@functools.lru_cache(maxsize=None)
def _type_info(tp: Any) -> tuple[bool, Any, Any, tuple]:
    """(optional, the type without Optional, its origin, its args), worked out once per type:
    typing introspection was most of the catalog's load time at every start."""
    origin = typing.get_origin(tp)
    optional = origin in (Union, types.UnionType) and type(None) in typing.get_args(tp)
    base = [a for a in typing.get_args(tp) if a is not type(None)][0] if optional else tp
    return optional, base, typing.get_origin(base), typing.get_args(base)


def _convert(value: Any, tp: Any, path: str, problems: list[Problem], where: str,
             choices: Optional[tuple] = None) -> Any:
    """Convert ``value`` to ``tp`` or record a problem and return None."""
    def bad(msg: str) -> None:
        problems.append(Problem(where, path, msg))

    optional, tp, origin, args = _type_info(tp)
    if value is None:
        if optional:
            return None
        bad("is required (got null)")
        return None
    if tp is str:
        if not isinstance(value, str):
            bad(f"expected text, got {type(value).__name__}")
            return None
        if len(value) > MAX_TEXT:
            bad(f"text longer than {MAX_TEXT} characters")
            return None
        if "\x00" in value:
            bad("contains a NUL character")
            return None
        why = bad_text(value, multiline=path in MULTILINE_FIELDS)
        if why:
            bad(why)
            return None
        out: Any = value.strip()  # as a CSV cell is read: both doors give the same part
        if optional and not out:
            return None  # an empty optional text is no text (an empty CSV cell reads the same)
    elif tp is bool:
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0"):
            out = value.strip().lower() in ("true", "yes", "1")
        elif isinstance(value, bool):
            out = value
        else:
            bad(f"expected true or false, got {value!r:.40}")
            return None
    elif tp in (int, float):
        num: Any = value
        if isinstance(value, str):
            try:
                num = float(value.strip())
            except ValueError:
                bad(f"expected a number, got {value!r:.40}")
                return None
        if isinstance(num, bool) or not isinstance(num, (int, float)):
            bad(f"expected a number, got {type(value).__name__}")
            return None
        if not math.isfinite(num) or num < 0 or num > 1e7:
            bad(f"number out of range: {value!r:.40}")
            return None
        if tp is int:
            if float(num) != int(num):
                bad(f"expected a whole number, got {value!r:.40}")
                return None
            out = int(num)
        else:
            out = float(num)
    elif origin is tuple:
        (item_tp, _ellipsis) = args
        if isinstance(value, str) and item_tp is str:
            value = [v.strip() for v in value.split(";") if v.strip()] if value.strip() else []
        if not isinstance(value, list):
            bad(f"expected a list, got {type(value).__name__}")
            return None
        if len(value) > 200:
            bad("list longer than 200 items")
            return None
        items = []
        for i, v in enumerate(value):
            items.append(_convert(v, item_tp, f"{path}[{i}]", problems, where, choices))
        return tuple(items)
    elif origin is dict:
        if not isinstance(value, dict):
            bad(f"expected an object, got {type(value).__name__}")
            return None
        out = {}
        for k, v in value.items():
            out[str(k)] = _convert(v, int, f"{path}.{k}", problems, where)
        return out
    elif _is_dataclass(tp):
        if not isinstance(value, dict):
            bad(f"expected an object, got {type(value).__name__}")
            return None
        return build_object(tp, value, where, problems, prefix=path + ".")
    else:  # pragma: no cover - a type the schema does not use
        raise TypeError(f"unsupported field type {tp!r}")
    if choices is not None and out not in choices:
        shown = ", ".join(str(c) for c in choices)
        bad(f"{value!r:.40} is not one of: {shown}")
        return None
    return out


@functools.lru_cache(maxsize=None)
def _is_dataclass(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp)


@functools.lru_cache(maxsize=None)
def _known_fields(cls: type) -> frozenset:
    return frozenset(name for name, _, _ in field_specs(cls))


def build_object(cls: type, raw: dict, where: str, problems: list[Problem],
                 prefix: str = "") -> Any:
    """Build one dataclass from ``raw``; problems are appended, None returned on any."""
    start = len(problems)
    known = _known_fields(cls)
    for key in raw:
        if key not in known and key not in ("origin", "verified"):
            problems.append(Problem(where, prefix + str(key), "unknown field"))
    choices = getattr(cls, "CHOICES", {})
    values: dict[str, Any] = {}
    for name, tp, required in field_specs(cls):
        if name not in raw:
            if required:
                problems.append(Problem(where, prefix + name, "is missing"))
            continue
        values[name] = _convert(raw[name], tp, prefix + name, problems, where, choices.get(name))
    if len(problems) > start:
        return None
    return cls(**values)


def build_trusted(cls: type, raw: dict) -> Any:
    """Build a dataclass from a row this program validated before (the prebuilt shipped catalog):
    the same conversions as ``build_object`` without the checks, about three times faster. Any
    surprise raises, and the caller falls back to ``validate_part``."""
    values = {}
    for name, tp, _required in field_specs(cls):
        if name in raw:
            values[name] = _trusted(raw[name], tp)
    return cls(**values)


def _trusted(v: Any, tp: Any) -> Any:
    if v is None:
        return None
    _optional, base, origin, args = _type_info(tp)
    if origin is tuple:
        return tuple(_trusted(x, args[0]) for x in v)
    if origin is dict:
        return {str(k): int(x) for k, x in v.items()}
    if _is_dataclass(base):
        return build_trusted(base, v)
    if base is float:
        return float(v)
    if base is int:
        return int(v)
    return v


def validate_part(cls: type[Part], raw: dict, where: str, origin: str = "shipped") -> tuple[Optional[Part], list[Problem]]:
    """Validate one catalog row. Returns the part (or None) and the problems found."""
    problems: list[Problem] = []
    if not isinstance(raw, dict):
        return None, [Problem(where, "", f"expected an object, got {type(raw).__name__}")]
    part = build_object(cls, raw, where, problems)
    if part is None:
        return None, problems
    part = dataclasses.replace(part, origin=origin)
    problems.extend(_semantic_checks(part, where))
    return (part if not problems else None), problems


def _semantic_checks(part: Part, where: str) -> list[Problem]:
    out: list[Problem] = []
    if not ID_RE.match(part.id):
        out.append(Problem(where, "id", f"{part.id!r:.60} must be lowercase letters, digits and '-'"))
    elif not part.id.startswith(part.PREFIX):
        out.append(Problem(where, "id", f"{part.id!r} must start with '{part.PREFIX}'"))
    if not DATE_RE.match(part.source_date):
        out.append(Problem(where, "source_date", f"{part.source_date!r:.40} is not YYYY, YYYY-MM or YYYY-MM-DD"))
    if not part.source.strip():
        out.append(Problem(where, "source", "must name where the facts come from"))
    for name in ("maker", "model"):
        if not getattr(part, name).strip():
            out.append(Problem(where, name, "is required (got blank text)"))
    if part.currency is not None and not part.currency.strip():
        out.append(Problem(where, "currency", "is blank; a price needs its currency (e.g. USD)"))
    elif (part.price is None) != (part.currency is None):
        out.append(Problem(where, "currency", "price and currency go together"))
    if isinstance(part, Riser) and not 0 < part.length_mm <= Riser.MAX_LENGTH_MM:  # a 0 mm cable joins nothing
        out.append(Problem(where, "length_mm", f"{part.length_mm:g} mm: a riser is more than 0 and at most "
                                               f"{Riser.MAX_LENGTH_MM:g} mm long"))
    known = {name for name, _, _ in field_specs(type(part))} | set(getattr(part, "EXTRA_UNVERIFIED", ()))
    for f in part.unverified:
        if f not in known:
            out.append(Problem(where, "unverified", f"names an unknown field {f!r:.40}"))
    slots = getattr(part, "slots", None)
    if slots is not None:
        ids = [s.id for s in slots] + [m.id for m in part.m2]  # type: ignore[attr-defined]
        if len(set(ids)) != len(ids):
            out.append(Problem(where, "slots", "slot and M.2 ids must be unique"))
        positions = [s.position for s in slots]
        if len(set(positions)) != len(positions):
            out.append(Problem(where, "slots", "two slots in one expansion position"))
        n = part.expansion_positions  # type: ignore[attr-defined]
        for s in slots:
            if not 1 <= s.position <= n:
                out.append(Problem(where, f"slots.{s.id}.position", f"{s.position} outside 1..{n}"))
        for i, rule in enumerate(part.lane_rules):  # type: ignore[attr-defined]
            for t in rule.when:
                if not TRIGGER_RE.match(t):
                    out.append(Problem(where, f"lane_rules[{i}].when", f"bad trigger {t!r:.40}"))
                elif not t.startswith("cpu_lanes<") and t.lstrip("!") not in ids:
                    out.append(Problem(where, f"lane_rules[{i}].when", f"unknown slot or M.2 id {t!r:.40}"))
            for sid in rule.widths:
                if sid not in ids:
                    out.append(Problem(where, f"lane_rules[{i}].widths", f"unknown slot or M.2 id {sid!r:.40}"))
    return out


def part_to_dict(part: Part) -> dict:
    """The row as plain JSON-able data (the catalog file format)."""
    d = dataclasses.asdict(part)
    d.pop("origin", None)
    return _plain(d)


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v
