"""SQLModel tables of a lab's shared database (docs/lab-database.md).

The same tables run on SQLite (the default: a file, nothing to install) and on PostgreSQL (a
lab's server, several people at once). They live in their own metadata (``LabBase``) so the
shipped catalog and the user's own parts database never create them.

Every row a person edits carries ``version``, ``updated_by`` and ``updated_at``; builds, cluster
plans and parts also ``created_by`` (their owner). Every row a person edits carries ``version``: a write names the version it read and changes the
row only if nobody changed it since (compare and set, :mod:`rigbuilder.catalog.labdb`).
"""
from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import JSON, CheckConstraint, Column, UniqueConstraint
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel


class LabBase(SQLModel, registry=registry()):
    """The lab database's tables (a metadata of their own)."""


class Edited(LabBase):
    """The columns of every row a person edits: the version a write must name (compare and set),
    who changed the row last and when. (Not a table: the tables below inherit these columns; the
    migrations, not this declaration, set the columns' order in the database.)"""

    version: int = 1
    updated_by: str = Field(default="", max_length=80)
    updated_at: str = Field(default="", max_length=40)


class Owned(Edited):
    """A row one member created and only that member (or the lab's administrator) may change: on
    PostgreSQL the server fills ``created_by`` with the login role and row-level security enforces
    it (migration ``lab0003``); on SQLite whoever may write the file may change every row."""

    created_by: str = Field(default="", max_length=80)


class SharedDocument(Owned):
    """A document shared in the lab under a name (a build, a cluster plan), stored as JSON."""

    name: str = Field(primary_key=True, max_length=200)
    document: dict[str, Any] = Field(default_factory=dict, sa_type=JSON, nullable=False)


class LabPart(Owned, table=True):
    """A part the lab added to its catalog: the part as the catalog format has it, in ``data``."""

    __tablename__ = "lab_part"

    id: str = Field(primary_key=True, max_length=120)
    kind: str = Field(index=True, max_length=20)
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class LabPrice(Edited, table=True):
    """A price the lab paid or was quoted, one per part and condition."""

    __tablename__ = "lab_price"
    __table_args__ = (UniqueConstraint("part_id", "condition", name="uq_lab_price_part_condition"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    part_id: str = Field(index=True, max_length=120)
    condition: str = Field(default="new", max_length=8)
    amount: float
    currency: str = Field(max_length=3)
    source: str = ""
    date: str = Field(default="", max_length=40)
    market: str = Field(default="", max_length=8)  # where it was seen (domain.market.MARKETS); "": paid, tax included


class LabCalibration(Edited, table=True):
    """A card model's calibration factor shared in the lab: measured over planned draw at load, from a
    member's power logs (``rigbuilder.domain.calibration``), one row per card model."""

    __tablename__ = "lab_calibration"
    __table_args__ = (UniqueConstraint("part_id", name="uq_lab_calibration_part"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    part_id: str = Field(index=True, max_length=120)
    factor: float
    logs: int
    latest: str = Field(default="", max_length=40)


class LabBuild(SharedDocument, table=True):
    """A build shared in the lab: the ``.rig`` document as JSON."""

    __tablename__ = "lab_build"


class LabCluster(SharedDocument, table=True):
    """A cluster plan shared in the lab: the ``.rigcluster`` document as JSON."""

    __tablename__ = "lab_cluster"


class LabInventory(Edited, table=True):
    """Parts the lab owns: how many of a part are at one place."""

    __tablename__ = "lab_inventory"
    __table_args__ = (UniqueConstraint("part_id", "location", name="uq_lab_inventory_part_location"),
                      CheckConstraint("count >= 0", name="ck_lab_inventory_count"))

    id: Optional[int] = Field(default=None, primary_key=True)
    part_id: str = Field(index=True, max_length=120)
    location: str = Field(default="", max_length=120)
    count: int = 0
    note: str = ""


LAB_METADATA = LabBase.metadata
