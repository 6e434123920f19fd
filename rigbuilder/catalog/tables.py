"""SQLModel tables for the catalog (shipped and user databases share them).

One row per part. Fields shared by every kind are typed columns (searchable, sortable); the
fields of each kind are stored as a JSON object in ``spec`` and validated on the way in and out
by the dataclass schema in :mod:`rigbuilder.domain.parts` (docs/catalog-format.md lists them).
This keeps one declaration of each kind's fields instead of a table class per kind that must
be kept in step with it.
"""
from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel


class PartRow(SQLModel, table=True):
    __tablename__ = "part"

    id: str = Field(primary_key=True, max_length=120)
    kind: str = Field(index=True, max_length=20)
    maker: str
    model: str
    price: Optional[float] = None
    currency: Optional[str] = None
    price_note: Optional[str] = None
    source: str
    source_date: str
    verified: bool = Field(index=True)
    unverified: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    notes: Optional[str] = None
    spec: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class CatalogMeta(SQLModel, table=True):
    __tablename__ = "catalog_meta"

    key: str = Field(primary_key=True)
    value: str


class UserPriceRow(SQLModel, table=True):
    """A price the user entered for a part (one per part and condition; setting it again replaces it)."""

    __tablename__ = "user_price"

    id: Optional[int] = Field(default=None, primary_key=True)
    part_id: str = Field(index=True, max_length=120)
    amount: float
    currency: str = Field(max_length=3)
    condition: str = Field(default="new", max_length=8)
    source: str = ""
    date: str = Field(default="", max_length=40)
    market: str = Field(default="", max_length=8)  # where it was seen (domain.market.MARKETS); "": tax included


class SharedCalibrationRow(SQLModel, table=True):
    """A card model's calibration factor pulled from the lab database (``lab calibration --pull``)."""

    __tablename__ = "shared_calibration"

    id: Optional[int] = Field(default=None, primary_key=True)
    part_id: str = Field(index=True, unique=True, max_length=120)
    factor: float
    logs: int
    latest: str = Field(default="", max_length=40)
    shared_by: str = Field(default="", max_length=80)
    pulled: str = Field(default="", max_length=40)


class MeasuredLogRow(SQLModel, table=True):
    """A power log the user imported for a build (rigbuilder.catalog.measurements)."""

    __tablename__ = "measured_log"

    id: Optional[int] = Field(default=None, primary_key=True)
    build_key: str = Field(index=True, max_length=1000)  # the build file's full path
    build_name: str = ""
    source: str = Field(default="", max_length=300)  # the log file's name
    kind: str = Field(default="nvidia-smi", max_length=20)
    started: str = Field(default="", max_length=40)  # the log's first reading (ISO), "" without times
    ended: str = Field(default="", max_length=40)
    imported: str = Field(default="", max_length=40)
    notes: str = ""  # the import's notes, one a line (English; shown translated from the codes in ``measured``)


class MeasuredCardRow(SQLModel, table=True):
    """One card of an imported log: measured and planned watts, the limit in force, throttling."""

    __tablename__ = "measured_card"

    id: Optional[int] = Field(default=None, primary_key=True)
    log_id: int = Field(index=True, foreign_key="measured_log.id")
    gpu_num: int
    part_id: str = Field(index=True, max_length=120)
    card_index: int
    card_name: str = Field(default="", max_length=200)
    samples: int = 0
    idle_w: Optional[float] = None
    load_w: Optional[float] = None
    max_w: Optional[float] = None
    limit_w: Optional[float] = None
    planned_idle_w: float = 0
    planned_load_w: float = 0
    planned_limit_w: Optional[float] = None
    reasons: str = ""  # throttle reasons seen while loaded, comma-separated (NVML's names)
    slowdown_share: float = 0
    energy_wh: Optional[float] = None
    duration_s: Optional[float] = None
    temp_max_c: Optional[float] = None
    calibrates: bool = True
