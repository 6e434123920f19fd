"""user prices table

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user_price",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("part_id", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("amount", sa.Float(), nullable=False),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
        sa.Column("condition", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("date", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("user_price") as batch:
        batch.create_index("ix_user_price_part_id", ["part_id"], unique=False)


def downgrade() -> None:
    op.drop_table("user_price")
