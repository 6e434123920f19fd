"""The user's measured power logs, in the user database (tables ``measured_log`` and
``measured_card``, Alembic revision 0003).

Written through SQLModel in one transaction (all of a log's cards or none); read with sqlite3 at
start-up, like the user's parts and prices. The calibration factors are derived from the stored
cards each time they are read (rigbuilder.domain.calibration), never stored twice.
"""
from __future__ import annotations

import datetime as _dt
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from rigbuilder.catalog.userdb import guarded_write, safe_to_open, tolerant_text
from rigbuilder.domain.calibration import Calibration, Record, calibrations

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


@dataclass(frozen=True)
class StoredCard:
    gpu_num: int
    part_id: str
    card_index: int
    card_name: str
    samples: int
    idle_w: Optional[float]
    load_w: Optional[float]
    max_w: Optional[float]
    limit_w: Optional[float]
    planned_idle_w: float
    planned_load_w: float
    planned_limit_w: Optional[float]
    reasons: tuple[str, ...]
    slowdown_share: float
    energy_wh: Optional[float]
    duration_s: Optional[float]
    temp_max_c: Optional[float]
    calibrates: bool


@dataclass(frozen=True)
class StoredLog:
    id: int
    build_key: str
    build_name: str
    source: str
    kind: str
    started: str
    ended: str
    imported: str
    notes: tuple[str, ...]
    cards: tuple[StoredCard, ...]

    @property
    def date(self) -> str:
        """The log's own date, else the day it was imported (ISO)."""
        return (self.started or self.imported)[:10]


def build_key(path: Path) -> str:
    """How a build's measurements are filed: its file's full path."""
    return str(Path(path).resolve())


_CARD_COLS = ("gpu_num", "part_id", "card_index", "card_name", "samples", "idle_w", "load_w", "max_w", "limit_w",
              "planned_idle_w", "planned_load_w", "planned_limit_w", "reasons", "slowdown_share", "energy_wh",
              "duration_s", "temp_max_c", "calibrates")


def read_logs(path: Optional[Path], build: Optional[str] = None) -> list[StoredLog]:
    """The stored logs (of the build filed as ``build``; all when None), oldest first. An absent
    database or one made before measurements has none."""
    if path is None or not safe_to_open(path):
        return []
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.text_factory = tolerant_text
        try:
            q = "select id, build_key, build_name, source, kind, started, ended, imported, notes from measured_log"
            logs = con.execute(q + (" where build_key = ?" if build is not None else "") + " order by id",
                               (build,) if build is not None else ()).fetchall()
            cards = con.execute(f"select log_id, {', '.join(_CARD_COLS)} from measured_card order by log_id, gpu_num"
                                ).fetchall()
        finally:
            con.close()
    except (sqlite3.Error, ValueError):
        return []
    by_log: dict[int, list[StoredCard]] = {}
    for row in cards:
        d = dict(zip(_CARD_COLS, row[1:]))
        d["reasons"] = tuple(r for r in (d["reasons"] or "").split(",") if r)
        d["calibrates"] = bool(d["calibrates"])
        by_log.setdefault(row[0], []).append(StoredCard(**d))
    return [StoredLog(i, k, n, s, kind, st or "", en or "", im or "", tuple((notes or "").splitlines()),
                      tuple(by_log.get(i, ()))) for i, k, n, s, kind, st, en, im, notes in logs]


def read_calibrations(path: Optional[Path]) -> dict[str, Calibration]:
    """Per GPU part id, the calibration the user's stored logs give."""
    return calibrations([Record(log.id, c.part_id, c.load_w, c.planned_load_w, c.calibrates, log.date)
                         for log in read_logs(path) for c in log.cards])


def read_shared_calibrations(path: Optional[Path]) -> dict[str, Calibration]:
    """The lab's calibrations as ``lab calibration --pull`` stored them (none before migration 0004)."""
    if path is None or not safe_to_open(path):
        return {}
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.text_factory = tolerant_text
        try:
            rows = con.execute("select part_id, factor, logs, latest, shared_by from shared_calibration").fetchall()
        finally:
            con.close()
    except (sqlite3.Error, ValueError):
        return {}
    return {pid: Calibration(float(f), int(n), latest or "", who or "?") for pid, f, n, latest, who in rows
            if isinstance(f, (int, float)) and isinstance(n, int) and n >= 1}


@guarded_write
def store_shared_calibrations(engine: "Engine", shared: dict[str, Calibration]) -> int:
    """Replace the pulled calibrations with ``shared`` (one transaction); returns how many."""
    from sqlmodel import Session, delete

    from rigbuilder.catalog.tables import SharedCalibrationRow

    now = _dt.datetime.now().isoformat(timespec="seconds")
    with Session(engine) as s:
        s.exec(delete(SharedCalibrationRow))  # type: ignore[call-overload]
        for pid, c in shared.items():
            s.add(SharedCalibrationRow(part_id=pid, factor=c.factor, logs=c.logs, latest=c.latest,
                                       shared_by=c.shared_by[:80], pulled=now))
        s.commit()
    return len(shared)


@guarded_write
def store_log(engine: "Engine", *, build_key: str, build_name: str, source: str, kind: str, started: str,
              ended: str, notes: Sequence[str], cards: Sequence[StoredCard]) -> int:
    """Store one imported log and its cards (one transaction); returns the log's id."""
    from sqlmodel import Session

    from rigbuilder.catalog.tables import MeasuredCardRow, MeasuredLogRow

    with Session(engine) as s:
        row = MeasuredLogRow(build_key=build_key[:1000], build_name=build_name, source=source[:300], kind=kind,
                             started=started, ended=ended,
                             imported=_dt.datetime.now().isoformat(timespec="seconds"), notes="\n".join(notes))
        s.add(row)
        s.flush()
        for c in cards:
            d = {k: getattr(c, k) for k in _CARD_COLS}
            d["reasons"] = ",".join(c.reasons)
            s.add(MeasuredCardRow(log_id=row.id, **d))
        s.commit()
        return int(row.id)  # type: ignore[arg-type]


@guarded_write
def remove_log(engine: "Engine", log_id: int) -> int:
    """Forget one stored log (its cards no longer calibrate); returns how many logs went."""
    from sqlmodel import Session, delete

    from rigbuilder.catalog.tables import MeasuredCardRow, MeasuredLogRow

    with Session(engine) as s:
        s.exec(delete(MeasuredCardRow).where(MeasuredCardRow.log_id == log_id))  # type: ignore[arg-type]
        n = s.exec(delete(MeasuredLogRow).where(MeasuredLogRow.id == log_id)).rowcount  # type: ignore[arg-type,attr-defined]
        s.commit()
    return n or 0
