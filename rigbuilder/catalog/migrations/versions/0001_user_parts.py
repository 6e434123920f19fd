"""user parts table

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "part",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("maker", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("model", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("price", sa.Float(), nullable=True),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("price_note", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("source_date", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("unverified", sa.JSON(), nullable=False),
        sa.Column("notes", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("part") as batch:
        batch.create_index("ix_part_kind", ["kind"], unique=False)
        batch.create_index("ix_part_verified", ["verified"], unique=False)


def downgrade() -> None:
    op.drop_table("part")
