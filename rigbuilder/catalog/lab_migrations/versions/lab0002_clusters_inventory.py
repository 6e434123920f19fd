"""lab cluster plans and inventory

Revision ID: lab0002
Revises: lab0001
Create Date: 2026-11-26
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "lab0002"
down_revision = "lab0001"
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def _edited() -> list:
    return [sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("updated_by", S(length=80), nullable=False),
            sa.Column("updated_at", S(length=40), nullable=False)]


def upgrade() -> None:
    op.create_table(
        "lab_cluster",
        sa.Column("name", S(length=200), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        *_edited(),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "lab_inventory",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("part_id", S(length=120), nullable=False),
        sa.Column("location", S(length=120), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("note", S(), nullable=False),
        *_edited(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("part_id", "location", name="uq_lab_inventory_part_location"),
        sa.CheckConstraint("count >= 0", name="ck_lab_inventory_count"),
    )
    op.create_index("ix_lab_inventory_part_id", "lab_inventory", ["part_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_lab_inventory_part_id", table_name="lab_inventory")
    op.drop_table("lab_inventory")
    op.drop_table("lab_cluster")
