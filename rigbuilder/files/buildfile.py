"""The ``.rig`` build file: JSON with a format version (schema: docs/rig-format.schema.json).

Loading never executes anything from the file; every value is type-checked and every problem
names where it is. Saves are atomic (temporary file, then rename).
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Optional

from rigbuilder.domain import fields as F
from rigbuilder.domain import kinds, limits
from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.money import MoneyError, check_amount, check_date
from rigbuilder.domain.safeio import UnreadableFile, bad_text, parse_json, read_limited
from rigbuilder.files.atomic import write_atomic
from rigbuilder.domain.build import UNTITLED, Build, GpuPlacement, PartCount, PricePaid, Settings, StorageItem

FORMAT = "rigbuilder-build"
FORMAT_VERSION = 2
MAX_BYTES = 2 * 1024 * 1024
MAX_ITEMS = limits.MAX_ITEMS

def _v1_to_v2(d: dict) -> dict:
    """Format 2 adds ``prices_paid`` and the settings ``budget`` and ``condition``; a format-1 file
    has none of them: no prices paid, no budget, catalog prices for new parts."""
    d["prices_paid"] = {}
    d["format_version"] = 2
    return d


UPGRADES: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2}
"""Upgrade steps: ``UPGRADES[n]`` turns a version-n document into version n+1."""


class BuildFileError(ValueError):
    """A build file that cannot be read; the message says what and where."""


def to_dict(build: Build) -> dict:
    out: dict = {"format": FORMAT, "format_version": FORMAT_VERSION, "name": build.name}
    for k in kinds.BILL:  # every role that is a Build attribute, in the bill's order (domain.kinds)
        v = getattr(build, k.role.attr) if k.role.shape != kinds.UNDER else None
        if k.role.shape == kinds.ONE:
            out[k.role.attr] = v
        elif k.role.shape == kinds.LIST:
            out[k.role.attr] = list(v)
        elif k.role.shape in (kinds.COUNTED, kinds.PLACED):
            out[k.role.attr] = [asdict(e) for e in v]
    out.update(settings=asdict(build.settings), notes=build.notes,
               prices_paid={k: asdict(v) for k, v in build.prices_paid.items()})
    return out


def dumps(build: Build) -> str:
    return json.dumps(to_dict(build), indent=2, ensure_ascii=False) + "\n"


def save(build: Build, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename over the target.

    What is written is first read back through the loader (the same code Open uses): a build the
    loader would refuse raises BuildFileError naming what, and nothing is written."""
    text = dumps(build)
    loads(text, T("cannot save this build"))
    write_atomic(path, text.encode("utf-8"))


class _Reader:
    """Reads the fields of a JSON document (a build file, a cluster file), each problem raised as
    ``error`` naming the file and the field."""

    def __init__(self, where: str, error: type[BuildFileError] = BuildFileError) -> None:
        self.where = where
        self.error = error

    def fail(self, path: str, msg: str) -> None:
        """``msg`` says what is wrong with the field at ``path`` (a ``T``, translated where shown)."""
        raise self.error(T("{where}: '{path}' {problem}", where=self.where, path=path, problem=msg))

    def versioned(self, data: Any, format: str, version: int, upgrades: dict[int, Callable[[dict], dict]],
                  not_ours: str) -> dict:
        """The top-level object of a document of ``format``, upgraded from its format version to
        ``version``; ``not_ours`` (a ``T`` with ``{where}`` and ``{format}``) is said when it is
        not such a document, a newer version is refused."""
        d = self.obj(data, "(top level)")
        if d.get("format") != format:
            raise self.error(T(not_ours, where=self.where, format=format))
        ver = d.get("format_version")
        if isinstance(ver, bool) or not isinstance(ver, int):
            self.fail("format_version", T("must be a whole number"))
        if ver > version:
            raise self.error(T("{where}: made by a newer rigbuilder (format {version}); this version reads up to "
                               "format {supported}. Update rigbuilder to open it.", where=self.where, version=ver,
                               supported=version))
        if ver < 1:
            self.fail("format_version", T("must be 1 or more (got {value})", value=ver))
        while ver < version:
            d = upgrades[ver](dict(d))
            ver += 1
        return d

    def text(self, d: dict, key: str, path: str, optional: bool = True, max_len: Optional[int] = None,
             multiline: bool = False) -> Optional[str]:
        """A text field; ``max_len`` for files without a declared field table (a build's text
        lengths are judged with the rest of the build, ``limits.check``)."""
        v = d.get(key)
        if v is None:
            if not optional:
                self.fail(path, T("is missing"))
            return None
        if not isinstance(v, str):
            self.fail(path, T("must be text, not {type}", type=type(v).__name__))
        why = bad_text(v, multiline)
        if why:
            self.fail(path, why)
        if max_len is not None and len(v) > max_len:
            self.fail(path, T("is longer than {n} characters", n=max_len))
        return v

    def number(self, d: dict, key: str, path: str, default: Optional[float], lo: float, hi: float,
               whole: bool = False) -> Optional[float]:
        """A number within [lo, hi], for files without a declared field table (the cluster file)."""
        v = d.get(key)
        if v is None:  # missing or an explicit null: the default (None where there is none)
            return default
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(path, T("must be a number, not {type}", type=type(v).__name__))
        if not (lo <= v <= hi):
            self.fail(path, T("must be between {lo:g} and {hi:g} (got {value})", lo=lo, hi=hi, value=repr(v)))
        if whole and int(v) != v:
            self.fail(path, T("must be a whole number (got {value})", value=repr(v)))
        return int(v) if whole else float(v)

    def value(self, d: dict, f: F.Field, path: str, key: str = "") -> Any:
        """The field ``f`` of ``d``, of its type (a whole number where it is one) and normalised;
        missing or an explicit null: its default. Its range is judged with the rest of the build
        (``limits.check``), so the loader and the edits keep one set of limits."""
        v = d.get(key or f.name)
        if v is None:
            return f.default
        if f.kind is str:  # an empty text: the default too, where the field has one
            return f.normalised(self.text(d, key or f.name, path)) or (f.default if f.default is not None else v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(path, T("must be a number, not {type}", type=type(v).__name__))
        if f.kind is int:
            return int(v) if v == v and abs(v) != float("inf") and int(v) == v else v
        return f.normalised(v)

    def items(self, d: dict, key: str, path: str) -> list:
        v = d.get(key, [])
        if v is None:
            return []
        if not isinstance(v, list):
            self.fail(path, T("must be a list, not {type}", type=type(v).__name__))
        if len(v) > MAX_ITEMS:
            self.fail(path, T("has more than {n} items", n=MAX_ITEMS))
        return v

    def obj(self, v: Any, path: str) -> dict:
        if not isinstance(v, dict):
            self.fail(path, T("must be an object, not {type}", type=type(v).__name__))
        return v


def from_dict(data: Any, where: str = "build") -> Build:
    r = _Reader(where)
    d = r.versioned(data, FORMAT, FORMAT_VERSION, UPGRADES,
                    N_("{where}: not a rigbuilder build file (missing \"format\": \"{format}\")"))
    b = Build()
    name = r.text(d, "name", "name")
    # No name, or the English default older versions stored: a never-named build ("" , shown translated).
    b.name = "" if name is None or name == UNTITLED else name
    for k in kinds.KINDS:  # the roles that hold plain part ids (domain.kinds); entries with more below
        key = k.role.attr
        if k.role.shape == kinds.ONE:
            setattr(b, key, r.text(d, key, key))
        elif k.role.shape == kinds.LIST:
            setattr(b, key, [r.text({"v": v}, "v", f"{key}[{i}]", optional=False)
                             for i, v in enumerate(r.items(d, key, key))])
    for i, m in enumerate(r.items(d, "memory", "memory")):
        m = r.obj(m, f"memory[{i}]")
        b.memory.append(PartCount(r.text(m, "part_id", f"memory[{i}].part_id", optional=False),  # type: ignore[arg-type]
                                  r.value(m, F.COUNT, f"memory[{i}].count")))
    for i, s in enumerate(r.items(d, "storage", "storage")):
        s = r.obj(s, f"storage[{i}]")
        b.storage.append(StorageItem(r.text(s, "part_id", f"storage[{i}].part_id", optional=False),  # type: ignore[arg-type]
                                     r.value(s, F.COUNT, f"storage[{i}].count"),
                                     r.value(s, F.M2, f"storage[{i}].m2")))
    for i, g in enumerate(r.items(d, "gpus", "gpus")):
        g = r.obj(g, f"gpus[{i}]")
        b.gpus.append(GpuPlacement(
            r.text(g, "part_id", f"gpus[{i}].part_id", optional=False),  # type: ignore[arg-type]
            r.value(g, F.POSITION, f"gpus[{i}].position"), r.value(g, F.MOUNT, f"gpus[{i}].mount"),
            r.value(g, F.POWER_LIMIT, f"gpus[{i}].power_limit_w"), r.value(g, F.RISER, f"gpus[{i}].riser")))
    s = r.obj(d.get("settings", {}), "settings")
    b.settings = Settings(**{key: r.value(s, f, f"settings.{key}") for key, f in F.SETTINGS.items()})
    paid = d.get("prices_paid", {})
    paid = {} if paid is None else paid
    if not isinstance(paid, dict):
        r.fail("prices_paid", T("must be an object of part id: price, not {type}", type=type(paid).__name__))
    if len(paid) > MAX_ITEMS:
        r.fail("prices_paid", T("has more than {n} items", n=MAX_ITEMS))
    for pid, v in paid.items():
        where = f"prices_paid.{pid:.60}"
        v = r.obj(v, where)
        b.prices_paid[pid] = PricePaid(*(r.value(v, f, f"{where}.{f.name}") for f in (
            F.PAID_AMOUNT, F.PAID_CURRENCY, F.PAID_CONDITION)), r.value(v, F.PAID_NOTE, f"{where}.note") or "",
            r.value(v, F.PAID_DATE, f"{where}.date") or "")
        paid_now = b.prices_paid[pid]  # the checks every other door makes of a price (domain.money)
        for field, check in (("amount", lambda: check_amount(paid_now.amount)),
                             ("date", lambda: paid_now.date and check_date(paid_now.date, default_today=False))):
            try:
                check()
            except MoneyError as e:
                r.fail(f"{where}.{field}", e.args[0] if e.args else str(e))
    b.notes = r.text(d, "notes", "notes", multiline=True) or ""
    for path, why in limits.check(b):  # the limits every edit keeps, judged once
        r.fail(path, why)
    return b


def loads(text: str, where: str = "build") -> Build:
    return from_dict(parse_document(text, where), where)


def load(path: Path) -> Build:
    return loads(read_document(path, MAX_BYTES), str(path))


def parse_document(text: str, where: str, error: type[BuildFileError] = BuildFileError) -> Any:
    """The JSON value of a document's text; a text that is not JSON raises ``error`` saying where."""
    try:
        return parse_json(text)
    except json.JSONDecodeError as e:
        raise error(T("{where}: not valid JSON at line {line}, column {column}: {error}", where=where,
                      line=e.lineno, column=e.colno, error=e.msg)) from None
    except ValueError as e:
        raise error(T("{where}: {error}", where=where, error=e.args[0] if e.args else str(e))) from None


def read_document(path: Path, max_bytes: int, error: type[BuildFileError] = BuildFileError) -> str:
    """The text of a document file of at most ``max_bytes``; what cannot be read raises ``error``."""
    path = Path(path)
    try:
        raw = read_limited(path, max_bytes)
    except UnreadableFile as e:
        raise error(T("{path}: {error}; the file must be a regular file of at most {n} bytes", path=str(path),
                      error=e.args[0] if e.args else str(e), n=max_bytes)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(T("{path}: not UTF-8 text (byte {byte})", path=str(path), byte=e.start)) from None
