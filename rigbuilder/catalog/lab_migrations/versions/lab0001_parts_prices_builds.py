"""lab parts, prices and builds

Revision ID: lab0001
Revises:
Create Date: 2026-11-26
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "lab0001"
down_revision = None
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def _edited() -> list:
    return [sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("updated_by", S(length=80), nullable=False),
            sa.Column("updated_at", S(length=40), nullable=False)]


def upgrade() -> None:
    op.create_table(
        "lab_part",
        sa.Column("id", S(length=120), nullable=False),
        sa.Column("kind", S(length=20), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        *_edited(),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_lab_part_kind", "lab_part", ["kind"], unique=False)
    op.create_table(
        "lab_price",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("part_id", S(length=120), nullable=False),
        sa.Column("condition", S(length=8), nullable=False),
        sa.Column("amount", sa.Float(), nullable=False),
        sa.Column("currency", S(length=3), nullable=False),
        sa.Column("source", S(), nullable=False),
        sa.Column("date", S(length=40), nullable=False),
        *_edited(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("part_id", "condition", name="uq_lab_price_part_condition"),
    )
    op.create_index("ix_lab_price_part_id", "lab_price", ["part_id"], unique=False)
    op.create_table(
        "lab_build",
        sa.Column("name", S(length=200), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        *_edited(),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("lab_build")
    op.drop_index("ix_lab_price_part_id", table_name="lab_price")
    op.drop_table("lab_price")
    op.drop_index("ix_lab_part_kind", table_name="lab_part")
    op.drop_table("lab_part")
