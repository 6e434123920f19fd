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
